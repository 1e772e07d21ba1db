// libFuzzer target: the bytes are a case file (YAML), parsed by parse_case. Besides the
// sanitizers, the parser's contract is checked: it either returns a case or throws one InputError
// of one line naming the file. Any other exception escapes and is reported as a finding.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "inertia/app/case_file.hpp"
#include "inertia/core/error.hpp"

namespace {

const char* const file_name = "fuzz/case.yaml";

void check(bool ok, const char* what, const std::string& message) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_case_file: %s: %s\n", what, message.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    inertia::parse_case(text, file_name);
  } catch (const inertia::InputError& e) {
    const std::string message = e.what();
    check(message.rfind(std::string(file_name), 0) == 0, "message does not name the file", message);
    check(message.find('\n') == std::string::npos, "message of more than one line", message);
  }
  return 0;
}
