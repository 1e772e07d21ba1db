// SIGTERM and SIGINT as a request to stop (core/interrupt.hpp): remembered by the guard, seen
// where the work asks.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace inertia
