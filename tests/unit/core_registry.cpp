// The registry shape (core/registry.hpp): lookup by name, the names in order, the message for an
// unknown name, the position of a row; and that a table of constexpr rows is a constant.

#include <gtest/gtest.h>

#include <array>
#include <string>

#include "inertia/core/registry.hpp"

namespace inertia {
namespace {

struct Row : EntryInfo {
  int value = 0;
};

constexpr std::array rows{
    Row{{"newmark", "implicit", "time: {integrator: newmark}"}, 1},
    Row{{"hht", "implicit, damped", "time: {integrator: hht}"}, 2},
    Row{{"rk4", "explicit", ""}, 3},
};
constexpr Registry<Row> registry{"integrator", rows};
static_assert(registry.size() == 3 && registry.find("hht")->value == 2,
              "a constexpr table makes a constant registry");

TEST(Registry, FindsRowsByNameAndListsTheirNamesInOrder) {
  ASSERT_NE(registry.find("hht"), nullptr);
  EXPECT_EQ(registry.find("hht")->value, 2);
  EXPECT_EQ(registry.find("Hht"), nullptr);
  EXPECT_EQ(registry.find(""), nullptr);
  EXPECT_EQ(registry.names(), (std::vector<std::string_view>{"newmark", "hht", "rk4"}));
  EXPECT_EQ(registry.size(), 3u);
  EXPECT_EQ(registry.index(*registry.find("rk4")), 2u);
  EXPECT_EQ(&registry.at("newmark"), &rows[0]);
  EXPECT_EQ(&registry[1], &rows[1]);
  int sum = 0;
  for (const Row& r : registry) sum += r.value;
  EXPECT_EQ(sum, 6);
}

TEST(Registry, AnUnknownNameIsOneLineWithAHintAndTheChoices) {
  EXPECT_EQ(registry.unknown("newmak"),
            "unknown integrator 'newmak' (did you mean 'newmark'?) (expected newmark, hht, rk4)");
  EXPECT_EQ(registry.unknown("x\ny"), "unknown integrator 'x\\ny' (expected newmark, hht, rk4)");
  try {
    registry.at("rk5");
    ADD_FAILURE() << "no InputError for an unknown name";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "unknown integrator 'rk5' (did you mean 'rk4'?) (expected newmark, hht, rk4)");
  }
}

}  // namespace
}  // namespace inertia
