// Text helpers for messages: printable() and excerpt() keep an error on one short line.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "inertia/core/text.hpp"

namespace inertia {
namespace {

TEST(Printable, EscapesControlBytesAndKeepsUtf8) {
  EXPECT_EQ(printable("out\x1b[31m\nred"), "out\\x1b[31m\\nred");
  EXPECT_EQ(printable("tab\there\r"), "tab\\there\\r");
  EXPECT_EQ(printable("r\xc3\xa9gion"), "r\xc3\xa9gion");  // UTF-8 as it is
}

TEST(Excerpt, KeepsShortTextWhole) {
  EXPECT_EQ(excerpt("1.5e3x"), "1.5e3x");
  EXPECT_EQ(excerpt(""), "");
  EXPECT_EQ(excerpt(std::string(80, 'a')), std::string(80, 'a'));
}

TEST(Excerpt, CutsLongTextAndGivesItsLength) {
  const std::string huge(5 << 20, '7');
  EXPECT_EQ(excerpt(huge), std::string(80, '7') + "... (5242880 bytes)");
  EXPECT_EQ(excerpt("abcdef", 3), "abc... (6 bytes)");
}

TEST(Excerpt, EscapesControlBytesAndNeverCutsAUtf8Character) {
  EXPECT_EQ(excerpt("a\nb"), "a\\nb");
  // "ab" then e-acute (2 bytes): a cut at 3 would split it.
  EXPECT_EQ(excerpt("ab\xc3\xa9zzz", 3), "ab... (7 bytes)");
}

TEST(DidYouMean, HintsTheClosestNameAndSkipsHugeWords) {
  const std::vector<std::string_view> names{"newmark", "hht", "rk4"};
  EXPECT_EQ(did_you_mean("nemwark", names), " (did you mean 'newmark'?)");
  EXPECT_EQ(did_you_mean("zzzzzzzzzz", names), "");
  // A 5 MB word: no hint, at once (the edit distance would cost 5 MB x the name's length).
  EXPECT_EQ(did_you_mean(std::string(5 << 20, 'n'), names), "");
}

}  // namespace
}  // namespace inertia
