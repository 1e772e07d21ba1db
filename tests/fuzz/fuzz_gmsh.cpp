// libFuzzer target: the bytes are a Gmsh mesh file (any of MSH 2.2 / 4.1, ASCII / binary), parsed
// from memory by parse_gmsh. Besides the sanitizers (a crash, an out-of-bounds read, a leak or
// undefined behaviour is a finding), the reader's contract is checked: it either returns a
// consistent mesh or throws one InputError of one line naming the file and the line or byte. Any
// other exception escapes and is reported as a finding.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "inertia/core/error.hpp"
#include "inertia/mesh/gmsh_reader.hpp"

namespace {

const char* const file_name = "fuzz.msh";

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "fuzz_gmsh: %s\n", what.c_str());
  std::abort();
}

void check(bool ok, const char* what) {
  if (!ok) finding(what);
}

/// The invariants every mesh from the reader satisfies (see tests/unit/mesh_gmsh_reader.cpp).
void check_mesh(const inertia::MeshData& m) {
  using inertia::info;
  const std::int64_t nodes = m.num_nodes(), cells = m.num_cells();
  check(m.coords.size() == 3 * m.node_tags.size(), "coords and node tags disagree");
  check(m.cell_offsets.size() == m.cell_types.size() + 1, "cell offsets and types disagree");
  check(m.cell_regions.size() == m.cell_types.size(), "cell regions and types disagree");
  check(m.cell_tags.size() == m.cell_types.size(), "cell tags and types disagree");
  check(m.cell_offsets.front() == 0, "first cell offset is not 0");
  check(m.cell_offsets.back() == static_cast<std::int64_t>(m.cell_nodes.size()),
        "last cell offset is not the number of cell nodes");
  check(cells > 0, "a mesh without cells");
  for (double x : m.coords) check(std::isfinite(x), "non-finite coordinate");
  std::vector<char> used(m.node_tags.size(), 0);
  for (std::int64_t c = 0; c < cells; ++c) {
    check(m.cell_offsets[c + 1] - m.cell_offsets[c] == info(m.cell_types[c]).num_nodes,
          "cell with the wrong number of nodes");
    check(m.cell_regions[c] >= 0 && m.cell_regions[c] < static_cast<int>(m.regions.size()),
          "cell region out of range");
    check(m.regions[m.cell_regions[c]].dim == info(m.cell_types[c]).dim,
          "cell in a region of another dimension");
    for (std::int64_t n : m.nodes_of(c)) {
      check(n >= 0 && n < nodes, "cell node out of range");
      used[n] = 1;
    }
  }
  for (char u : used) check(u == 1, "unused node kept");
  for (std::int64_t tag : m.node_tags) check(tag >= 0, "negative node tag");
}

/// True if `message` ends with " (line N)" or " (byte N)".
bool names_line_or_byte(std::string_view message) {
  if (message.empty() || message.back() != ')') return false;
  const std::size_t open = message.rfind(" (");
  if (open == std::string_view::npos) return false;
  std::string_view where = message.substr(open + 2, message.size() - open - 3);
  if (where.starts_with("line "))
    where.remove_prefix(5);
  else if (where.starts_with("byte "))
    where.remove_prefix(5);
  else
    return false;
  return !where.empty() && where.find_first_not_of("0123456789") == std::string_view::npos;
}

void check_message(const std::string& message) {
  auto check_that = [&](bool ok, const char* what) {
    if (!ok) finding(std::string(what) + ": " + message);
  };
  check_that(message.rfind(std::string(file_name) + ": ", 0) == 0,
             "message does not name the file");
  check_that(message.find('\n') == std::string::npos, "message of more than one line");
  check_that(names_line_or_byte(message), "message names no line or byte");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    check_mesh(inertia::parse_gmsh(text, file_name));
  } catch (const inertia::InputError& e) {
    check_message(e.what());
  }
  return 0;
}
