// libFuzzer target: the bytes are a split file (`inertia --split N`), read from memory as the
// ranks of a run would read it: read_split_index, then read_split_share for each rank (the first
// 16). Each input is read twice: as it is, where the checksums must refuse nearly every mutation,
// and resealed (reseal_split: the checksums recomputed to match), where the content checks alone
// stand between a mutated file and the solver, as for a hand-made file or a writer's bug.
// Besides the sanitizers (a crash, an out-of-bounds read, a leak, undefined behaviour, an
// allocation beyond -rss_limit_mb), the contract is checked: each share is a LocalMesh with what
// its consumers assume (the assembler, the DOF map, the writers), or one InputError of one line
// naming the file. Any other exception escapes and is reported as a finding.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "inertia/core/error.hpp"
#include "inertia/partition/split_file.hpp"

namespace {

const char* const file_name = "fuzz.split";
constexpr int max_ranks_read = 16;

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "fuzz_split: %s\n", what.c_str());
  std::abort();
}

void check(bool ok, const char* what) {
  if (!ok) finding(what);
}

void check_message(const std::string& message) {
  if (message.rfind(std::string(file_name), 0) != 0)
    finding("message does not name the file: " + message);
  if (message.find('\n') != std::string::npos) finding("message of more than one line: " + message);
}

/// What the LocalMesh's consumers assume, checked independently of the reader's own checks; the
/// accesses themselves are what AddressSanitizer watches (as the assembler's loops would make
/// them).
void check_local_mesh(const inertia::LocalMesh& m, const inertia::SplitIndex& index, int rank) {
  using inertia::info;
  const std::int64_t n = m.num_global_nodes;
  const std::int64_t local = m.num_owned + static_cast<std::int64_t>(m.ghosts.size());
  check(m.num_owned >= 0 && m.node_begin >= 0 && m.node_begin + m.num_owned <= n,
        "owned range outside the global nodes");
  check(m.num_local_nodes() == local, "node tags are not one per local node");
  check(m.coords.size() == 3 * static_cast<std::size_t>(local), "coords not 3 per local node");
  check(m.natural_ids.size() == static_cast<std::size_t>(m.num_owned),
        "natural ids not one per owned node");
  check(m.regions.size() == index.regions.size() &&
            m.region_owned_nodes.size() == m.regions.size() &&
            m.region_node_counts.size() == m.regions.size(),
        "region arrays disagree");
  for (double x : m.coords) check(std::isfinite(x), "non-finite coordinate");
  for (std::int32_t l = 0; l < m.num_local_nodes(); ++l) {
    const std::int64_t g = m.global_node(l);
    check(g >= 0 && g < n, "local node maps outside the global nodes");
    check(l < m.num_owned || g < m.node_begin || g >= m.node_begin + m.num_owned,
          "ghost in the owned range");
    check(l <= m.num_owned || g > m.global_node(l - 1), "ghosts not increasing");
  }
  for (std::int64_t natural : m.natural_ids) check(natural >= 0 && natural < n, "natural id");
  check(m.cell_offsets.size() == m.cell_types.size() + 1 && m.cell_offsets.front() == 0 &&
            m.cell_offsets.back() == static_cast<std::int64_t>(m.cell_nodes.size()),
        "cell offsets");
  check(m.cell_regions.size() == m.cell_types.size() && m.cell_tags.size() == m.cell_types.size() &&
            m.cell_is_element.size() == m.cell_types.size(),
        "cell arrays disagree");
  std::int64_t elements = 0;
  for (std::int64_t c = 0; c < m.num_cells(); ++c) {
    check(static_cast<int>(m.cell_types[c]) < inertia::num_cell_types, "cell type");
    const auto& type = info(m.cell_types[c]);
    const auto nodes = m.nodes_of(c);
    check(static_cast<int>(nodes.size()) == type.num_nodes, "cell node count");
    double sum = 0;
    for (std::int64_t a : nodes) {
      check(a >= 0 && a < local, "cell node out of range");
      for (int i = 0; i < 3; ++i) sum += m.coords[3 * a + i];  // the assembler's gather
    }
    check(std::isfinite(sum) || nodes.empty(), "cell coordinates");
    const int r = m.cell_regions[c];
    check(r >= -1 && r < static_cast<int>(m.regions.size()), "cell region out of range");
    check(r < 0 || m.regions[r].dim == type.dim, "cell in a region of another dimension");
    elements += m.cell_is_element[c] ? 1 : 0;
  }
  check(elements == index.summary.elements_per_rank[rank], "element count");
  for (const auto& set : m.region_owned_nodes)
    for (std::size_t k = 0; k < set.size(); ++k)
      check(set[k] >= 0 && set[k] < m.num_owned && (k == 0 || set[k] > set[k - 1]),
            "region node set");
}

void read_all(std::span<const std::byte> bytes) {
  const inertia::SplitBytes source(bytes);
  inertia::SplitIndex index;
  try {
    index = inertia::read_split_index(source, file_name);
  } catch (const inertia::InputError& e) {
    check_message(e.what());
    return;
  }
  check(index.parts > 0 && index.share_offsets.size() == static_cast<std::size_t>(index.parts) + 1,
        "index parts");
  std::int64_t owned = 0;
  for (auto o : index.summary.owned_nodes_per_rank) owned += o;
  check(owned == index.num_global_nodes, "owned nodes do not add up");
  for (int rank = 0; rank < std::min(index.parts, max_ranks_read); ++rank) {
    try {
      check_local_mesh(inertia::read_split_share(source, index, rank, file_name), index, rank);
    } catch (const inertia::InputError& e) {
      check_message(e.what());
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::byte> bytes(size);
  std::transform(data, data + size, bytes.begin(), [](std::uint8_t b) { return std::byte{b}; });
  read_all(bytes);
  inertia::reseal_split(bytes);
  read_all(bytes);
  return 0;
}
