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

/// SIGTERM and SIGINT held back in the calling thread while the object lives, for a library call
/// that installs handlers of its own: METIS (GKlib) catches SIGTERM, jumps out of its work and
/// returns METIS_ERROR, which would read as a failed partition. The destructor puts back the
/// handlers the call found (GKlib restores them with signal(), which loses SA_RESETHAND) and then
/// lets a signal that came meanwhile through, so it reaches InterruptGuard's handler. A process's
/// signal reaches this thread only when the other threads block it (mask_signals_in_new_threads).
class SignalsHeld {
 public:
  SignalsHeld();
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;
  ~SignalsHeld();

 private:
  sigset_t previous_mask_{};
  struct sigaction previous_term_ {
  }, previous_int_{};
};

/// Blocks SIGTERM and SIGINT in the calling thread while the object lives; threads started
/// meanwhile (MPI's progress threads, started by MPI_Init) keep them blocked for good, so the
/// process's SIGTERM and SIGINT go to the main thread, where SignalsHeld can hold them.
class ThreadsWithoutSignals {
 public:
  ThreadsWithoutSignals();
  ThreadsWithoutSignals(const ThreadsWithoutSignals&) = delete;
  ThreadsWithoutSignals& operator=(const ThreadsWithoutSignals&) = delete;
  ~ThreadsWithoutSignals();

 private:
  sigset_t previous_mask_{};
};

/// The signal this process received while an InterruptGuard was installed, 0 if none. A read of
/// one flag: cheap enough for inner loops.
int interrupt_signal();

/// Throws Interrupted(interrupted_message(signal, where)) if this process received a signal.
/// Local: for serial code and for work one rank does alone while the others wait (their caller,
/// run_on_root, makes the exception collective).
void throw_if_interrupted(std::string_view where);

}  // namespace inertia
