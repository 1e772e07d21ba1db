#pragma once
/// \file interrupt.hpp
/// SIGTERM and SIGINT (a batch system's time limit, Ctrl-C) as a request to stop, seen where
/// the work can stop cleanly. The signal handler only records the signal; long loops ask
/// interrupt_signal() at natural points. No MPI: a rank that works alone (rank 0 reading a mesh)
/// throws with throw_if_interrupted() and its caller makes the error collective; work that every
/// rank does together combines the ranks' flags (parallel/session.hpp, stop_if_interrupted()), so
/// a signal delivered to one rank only stops them all.

#include <csignal>
#include <string>
#include <string_view>

#include "inertia/core/error.hpp"

namespace inertia {

/// The run was stopped by a signal; the exit status is 128 + signal().
class Interrupted : public Error {
 public:
  Interrupted(int signal, const std::string& what) : Error(what), signal_(signal) {}
  int signal() const { return signal_; }

 private:
  int signal_;
};

/// "SIGTERM", "SIGINT", or "signal N".
std::string signal_name(int signal);

/// "interrupted by SIGTERM <where>", the start of every interruption's message.
std::string interrupted_message(int signal, std::string_view where);

/// SIGTERM and SIGINT while the object lives: the first is remembered (interrupt_signal()); a
/// second one is not caught (its default action ends the process). The previous handlers come
/// back with the destructor. One at a time.
class InterruptGuard {
 public:
  InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  ~InterruptGuard();

 private:
  struct sigaction previous_term_ {
  }, previous_int_{};
};

/// The signal this process received while an InterruptGuard was installed, 0 if none. A read of
/// one flag: cheap enough for inner loops.
int interrupt_signal();

/// Throws Interrupted(interrupted_message(signal, where)) if this process received a signal.
/// Local: for serial code and for work one rank does alone while the others wait (their caller,
/// run_on_root, makes the exception collective).
void throw_if_interrupted(std::string_view where);

}  // namespace inertia
