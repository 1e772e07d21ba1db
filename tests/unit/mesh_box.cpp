// The box generator's size checks: a box whose counts overflow int64, or that no rank could hold,
// is one InputError naming mesh.box.cells, raised before anything is allocated.

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "inertia/core/error.hpp"
#include "inertia/mesh/box.hpp"

namespace inertia {
namespace {

BoxSpec box(std::int64_t nx, std::int64_t ny, std::int64_t nz, CellType element = CellType::hex8) {
  BoxSpec spec;
  spec.cells = {nx, ny, nz};
  spec.element = element;
  return spec;
}

template <typename F>
std::string input_error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an InputError";
  return "";
}

void expect_one_line_naming_cells(const std::string& message, const std::string& part) {
  EXPECT_EQ(message.rfind("mesh.box.cells: ", 0), 0u) << message;
  EXPECT_NE(message.find(part), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(Box, RejectsPointCountsThatOverflowBeforeAllocating) {
  constexpr std::int64_t max = std::numeric_limits<std::int64_t>::max();
  // 4194304^3 = 2^66 points: the product wrapped to 0 and the box was generated until bad_alloc.
  for (const BoxSpec& spec :
       {box(4194303, 4194303, 4194303), box(2097151, 2097151, 2097151, CellType::tet10),
        box(max, 1, 1), box(max / 2, 1, 1, CellType::tet10), box(3037000499, 3037000499, 1),
        box(1 << 20, 1 << 20, 1 << 20, CellType::tet4)}) {
    SCOPED_TRACE(testing::PrintToString(spec.cells));
    expect_one_line_naming_cells(input_error_of([&] { check_box_spec(spec); }), "too many cells");
    expect_one_line_naming_cells(input_error_of([&] { generate_box(spec); }), "too many cells");
  }
}

TEST(Box, AllowsExactlyTwoToTheFortyPoints) {
  check_box_spec(box(1023, 1023, (1 << 20) - 1));  // 1024 * 1024 * 2^20 points
  expect_one_line_naming_cells(input_error_of([&] { check_box_spec(box(1023, 1023, 1 << 20)); }),
                               "1099512676352 points, more than the 2^40");
}

TEST(Box, RejectsBadBounds) {
  BoxSpec spec = box(2, 2, 2);
  spec.upper[1] = std::numeric_limits<double>::infinity();
  EXPECT_THROW(check_box_spec(spec), InputError);
  spec = box(2, 2, 2);
  spec.lower[0] = -1e308, spec.upper[0] = 1e308;  // upper - lower overflows
  EXPECT_THROW(check_box_spec(spec), InputError);
  spec = box(2, 0, 2);
  EXPECT_THROW(check_box_spec(spec), InputError);
}

TEST(Box, RefusesABlockBeyondThirtyTwoBitLocalIndices) {
  // 1001^3 points on one rank: 3 * 1001^3 degrees of freedom do not fit 32-bit local indices
  const BoxSpec spec = box(1000, 1000, 1000);
  check_box_spec(spec);
  expect_one_line_naming_cells(input_error_of([&] {
                                 check_box_block(spec, {0, 0, 0}, spec.cells, 0);
                               }),
                               "too many cells for one rank: its block of 1003003001 points");
  expect_one_line_naming_cells(input_error_of([&] { generate_box(spec); }),
                               "too many cells for one rank");
  // its eighth fits (memory not checked)
  check_box_block(spec, {0, 0, 0}, {500, 500, 500}, 0);
}

TEST(Box, RefusesABlockLargerThanTheMemory) {
  const BoxSpec spec = box(100, 100, 100, CellType::tet10);
  const BoxBlockSize size = box_block_size(spec, {0, 0, 0}, {100, 100, 50});
  EXPECT_EQ(size.points, 201 * 201 * 101);
  EXPECT_EQ(size.cells, 6 * 100 * 100 * 50);
  const std::uint64_t bytes = box_block_bytes(spec, size);
  EXPECT_GT(bytes, 88u * 201 * 201 * 101);
  check_box_block(spec, {0, 0, 0}, {100, 100, 50}, bytes);
  expect_one_line_naming_cells(input_error_of([&] {
                                 check_box_block(spec, {0, 0, 0}, {100, 100, 50}, bytes - 1);
                               }),
                               "GiB for the mesh alone");
  expect_one_line_naming_cells(input_error_of([&] {
                                 check_box_block(spec, {0, 0, 0}, {100, 100, 50}, bytes, 1);
                               }),
                               "use more ranks or fewer cells");
}

TEST(Box, GeneratesSmallBoxes) {
  const MeshData hex = generate_box(box(2, 3, 4));
  EXPECT_EQ(hex.num_nodes(), 3 * 4 * 5);
  const MeshData tet10 = generate_box(box(2, 3, 4, CellType::tet10));
  EXPECT_EQ(tet10.num_nodes(), 5 * 7 * 9);
  std::int64_t volume = 0;
  for (auto t : tet10.cell_types) volume += t == CellType::tet10 ? 1 : 0;
  EXPECT_EQ(volume, 6 * 2 * 3 * 4);
}

}  // namespace
}  // namespace inertia
