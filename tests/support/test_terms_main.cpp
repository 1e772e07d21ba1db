// The inertia executable with the force-term kinds defined in tests/support (inertia-test-terms):
// a kind defined outside the library is one file and one line here.
#include "inertia/app/run.hpp"
#include "inertia/system/force_term.hpp"

namespace inertia::test {
extern const ForceTermEntry state_check_entry;
}

int main(int argc, char** argv) {
  inertia::register_force_term(inertia::test::state_check_entry);
  return inertia::run_main(argc, argv);
}
