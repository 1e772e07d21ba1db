// libFuzzer target: the bytes are a case file (YAML), parsed by parse_case. Besides the
// sanitizers, the parser's contract is checked: it either returns a case or throws one InputError
// of one line naming the file. Any other exception escapes and is reported as a finding.
// A parsed mesh.box goes on to the box generator's checks (mesh/box.hpp), and a small one (the
// mesh of at most 1 MiB) is generated: the box code is fuzzed with every box a case file can give.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "inertia/app/case_file.hpp"
#include "inertia/app/conditions.hpp"
#include "inertia/app/output_fields.hpp"
#include "inertia/app/plausibility.hpp"
#include "inertia/core/error.hpp"
#include "inertia/mesh/box.hpp"
#include "inertia/system/force_term.hpp"
#include "inertia/time/scheme.hpp"

namespace {

const char* const file_name = "fuzz/case.yaml";

void check(bool ok, const char* what, const std::string& message) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_case_file: %s: %s\n", what, message.c_str());
  std::abort();
}

void check_box(const inertia::BoxSpec& box) {
  try {
    inertia::check_box_spec(box);
    inertia::check_box_block(box, {0, 0, 0}, box.cells, std::uint64_t{1} << 20);
  } catch (const inertia::InputError& e) {
    const std::string message = e.what();
    check(message.rfind("mesh.box", 0) == 0, "box message does not name the key", message);
    check(message.find('\n') == std::string::npos, "box message of more than one line", message);
    return;
  }
  const inertia::MeshData mesh = inertia::generate_box(box);
  check(mesh.num_cells() > 0 && mesh.num_nodes() > 0, "empty box", "");
}

}  // namespace

// The target links with unresolved symbols ignored (CMakeLists.txt): a registry the parser reads
// whose source was left out of the target would be a null function, and every input would crash
// on it. Checked once, with the registry's name, before any input.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const struct {
    const void* function;
    const char* name;
  } registries[] = {
      {reinterpret_cast<const void*>(&inertia::force_terms), "force_terms"},
      {reinterpret_cast<const void*>(&inertia::condition_types), "condition_types"},
      {reinterpret_cast<const void*>(
           static_cast<std::span<const inertia::OutputField> (*)()>(&inertia::output_fields)),
       "output_fields"},
      {reinterpret_cast<const void*>(&inertia::schemes), "schemes"},
      {reinterpret_cast<const void*>(&inertia::parse_case), "parse_case"},
      {reinterpret_cast<const void*>(&inertia::correct_baseline), "correct_baseline"},
      {reinterpret_cast<const void*>(&inertia::record_units), "record_units"},
      {reinterpret_cast<const void*>(&inertia::material_warnings), "material_warnings"},
  };
  for (const auto& r : registries)
    check(r.function != nullptr, "a source the parser needs is not compiled into the target",
          r.name);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  inertia::CaseFile c;
  try {
    c = inertia::parse_case(text, file_name);
  } catch (const inertia::InputError& e) {
    const std::string message = e.what();
    check(message.rfind(std::string(file_name), 0) == 0, "message does not name the file", message);
    check(message.find('\n') == std::string::npos, "message of more than one line", message);
    return 0;
  }
  if (c.box) check_box(*c.box);
  return 0;
}
