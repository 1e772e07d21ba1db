// The integrator factories that src/time/registry.cpp lists, for the case-file fuzz target only:
// parse_case asks the registry for names and stable steps but never makes an integrator, and the
// real factories would drag the whole solver (PETSc, assembly, ...) into the fuzz build. Each stub
// aborts if it is ever called. A factory added to the registry needs a stub here (the fuzz build
// fails to link until it has one).

#include <cstdio>
#include <cstdlib>

#include "inertia/time/central_difference.hpp"
#include "inertia/time/euler_explicit.hpp"
#include "inertia/time/heun.hpp"
#include "inertia/time/implicit_schemes.hpp"
#include "inertia/time/newmark.hpp"
#include "inertia/time/rk2.hpp"
#include "inertia/time/rk4.hpp"
#include "inertia/time/symplectic_euler.hpp"
#include "inertia/time/variational_symplectic_explicit.hpp"

namespace inertia {

namespace {

[[noreturn]] std::unique_ptr<Integrator> not_in_the_fuzz_build(const char* factory) {
  std::fprintf(stderr, "fuzz_case_file: %s called: integrators are not in the fuzz build\n",
               factory);
  std::abort();
}

}  // namespace

#define INERTIA_FUZZ_STUB(factory)                               \
  std::unique_ptr<Integrator> factory(const IntegratorParams&) { \
    return not_in_the_fuzz_build(#factory);                      \
  }

INERTIA_FUZZ_STUB(make_newmark)
INERTIA_FUZZ_STUB(make_euler_explicit)
INERTIA_FUZZ_STUB(make_symplectic_euler)
INERTIA_FUZZ_STUB(make_central_difference)
INERTIA_FUZZ_STUB(make_rk2)
INERTIA_FUZZ_STUB(make_heun)
INERTIA_FUZZ_STUB(make_rk4)
INERTIA_FUZZ_STUB(make_variational_symplectic_explicit)
INERTIA_FUZZ_STUB(make_variational_symplectic_implicit)
INERTIA_FUZZ_STUB(make_euler_implicit)
INERTIA_FUZZ_STUB(make_static)

}  // namespace inertia
