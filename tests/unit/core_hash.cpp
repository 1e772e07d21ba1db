// Content hashes for the integrity checks (split files, checkpoints' model fingerprint).

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "inertia/core/files.hpp"
#include "inertia/core/hash.hpp"

namespace inertia {
namespace {

TEST(Hash, StreamingEqualsOneCallAndEveryFlippedBitChangesIt) {
  std::vector<unsigned char> bytes(1000);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<unsigned char>(i * 37 + 11);
  const std::uint64_t whole = hash64(bytes.data(), bytes.size());
  Hasher h;
  h.add_bytes(bytes.data(), 300).add_bytes(bytes.data() + 300, 700);
  EXPECT_EQ(h.digest(), whole);
  for (std::size_t bit = 0; bit < 8 * bytes.size(); bit += 7) {
    auto flipped = bytes;
    flipped[bit / 8] ^= static_cast<unsigned char>(1u << (bit % 8));
    ASSERT_NE(hash64(flipped.data(), flipped.size()), whole) << "bit " << bit;
  }
}

TEST(Hash, TextIsHashedWithItsLength) {
  Hasher a, b;
  a.add("ab").add("c");
  b.add("a").add("bc");
  EXPECT_NE(a.digest(), b.digest());
}

TEST(Hash, UnorderedCombinationDoesNotDependOnTheOrder) {
  std::uint64_t forward = 0, backward = 0;
  for (std::uint64_t i = 0; i < 100; ++i) forward = combine_unordered(forward, hash64(&i, 8));
  for (std::uint64_t i = 100; i-- > 0;) backward = combine_unordered(backward, hash64(&i, 8));
  EXPECT_EQ(forward, backward);
  // ... but it does depend on the items: two items swapped in value change it
  std::uint64_t other = 0;
  for (std::uint64_t i = 0; i < 100; ++i) {
    const std::uint64_t item = i == 3 ? 4 : i == 4 ? 3 : i;
    other = combine_unordered(other, hash64(&item, 8) ^ (i << 1));
  }
  EXPECT_NE(other, forward);
}

TEST(Hash, FileHashEqualsTheHashOfItsBytesAndNamesAMissingFile) {
  const auto path = std::filesystem::temp_directory_path() / "inertia_core_hash_test.bin";
  std::string content(3 << 20, 'x');  // more than one read block
  content[2 << 20] = 'y';
  {
    std::ofstream out(path, std::ios::binary);
    out << content;
  }
  EXPECT_EQ(hash_file(path), hash64(content.data(), content.size()));
  std::filesystem::remove(path);
  try {
    hash_file(path);
    FAIL() << "no error for a missing file";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos)
        << e.what();
  }
}

TEST(Hash, HexHasSixteenDigits) { EXPECT_EQ(hex64(0x1234abcdULL), "000000001234abcd"); }

}  // namespace
}  // namespace inertia
