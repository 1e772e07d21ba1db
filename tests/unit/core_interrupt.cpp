// SIGTERM and SIGINT as a request to stop (core/interrupt.hpp): remembered by the guard, seen
// where the work asks.
#include <gtest/gtest.h>
#include <pthread.h>

#include <csignal>

#include "inertia/core/interrupt.hpp"

namespace inertia {
namespace {

TEST(Interrupt, ASignalIsRememberedAndStopsWhereAsked) {
  {
    const InterruptGuard guard;
    EXPECT_EQ(interrupt_signal(), 0);
    EXPECT_NO_THROW(throw_if_interrupted("while testing"));
    std::raise(SIGTERM);
    EXPECT_EQ(interrupt_signal(), SIGTERM);
    try {
      throw_if_interrupted("while testing");
      ADD_FAILURE() << "no Interrupted";
    } catch (const Interrupted& e) {
      EXPECT_EQ(e.signal(), SIGTERM);
      EXPECT_STREQ(e.what(), "interrupted by SIGTERM while testing");
    }
  }
  const InterruptGuard again;  // a new guard starts clear
  EXPECT_EQ(interrupt_signal(), 0);
  std::raise(SIGINT);
  EXPECT_EQ(interrupt_signal(), SIGINT);
  EXPECT_EQ(signal_name(SIGINT), "SIGINT");
}

volatile std::sig_atomic_t library_caught = 0;
void library_handler(int signal) { library_caught = signal; }

// A library call that installs its own SIGTERM handler (METIS's GKlib: signal(), then back with
// signal()) sees no signal while SignalsHeld lives; the signal reaches the guard afterwards, and
// the guard's handler comes back with its flags (SA_RESETHAND: a second signal is not caught).
TEST(Interrupt, ALibrarysOwnHandlerDoesNotTakeAHeldSignal) {
  const InterruptGuard guard;
  {
    const SignalsHeld held;
    auto* const ours = std::signal(SIGTERM, &library_handler);  // as GKlib's gk_sigtrap
    std::raise(SIGTERM);
    EXPECT_EQ(library_caught, 0);
    EXPECT_EQ(interrupt_signal(), 0);  // pending, not yet delivered
    std::signal(SIGTERM, ours);        // as gk_siguntrap
  }
  EXPECT_EQ(library_caught, 0);
  EXPECT_EQ(interrupt_signal(), SIGTERM);
  struct sigaction now {};
  sigaction(SIGTERM, nullptr, &now);
  EXPECT_NE(now.sa_flags & SA_RESETHAND, 0);
  sigset_t mask;
  pthread_sigmask(SIG_SETMASK, nullptr, &mask);
  EXPECT_EQ(sigismember(&mask, SIGTERM), 0);  // unblocked again
}

}  // namespace
}  // namespace inertia
