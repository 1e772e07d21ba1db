#include "inertia/core/interrupt.hpp"

#include <pthread.h>

#include <cstring>

namespace inertia {

namespace {

volatile std::sig_atomic_t received = 0;

void on_signal(int signal) {
  if (!received) received = signal;
}

}  // namespace

std::string signal_name(int signal) {
  const char* abbrev = sigabbrev_np(signal);
  return abbrev ? cat("SIG", abbrev) : cat("signal ", signal);
}

std::string interrupted_message(int signal, std::string_view where) {
  return cat("interrupted by ", signal_name(signal), " ", where);
}

InterruptGuard::InterruptGuard() {
  received = 0;
  struct sigaction action {};
  action.sa_handler = &on_signal;
  sigemptyset(&action.sa_mask);
  // SA_RESTART: system calls (reads of the mesh, MPI's waits) go on; SA_RESETHAND: a second
  // signal takes its default action, for a run that no longer reaches a point where it stops.
  action.sa_flags = SA_RESTART | SA_RESETHAND;
  sigaction(SIGTERM, &action, &previous_term_);
  sigaction(SIGINT, &action, &previous_int_);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGTERM, &previous_term_, nullptr);
  sigaction(SIGINT, &previous_int_, nullptr);
}

namespace {

sigset_t term_and_int() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}

}  // namespace

SignalsHeld::SignalsHeld() {
  const sigset_t set = term_and_int();
  pthread_sigmask(SIG_BLOCK, &set, &previous_mask_);
  sigaction(SIGTERM, nullptr, &previous_term_);
  sigaction(SIGINT, nullptr, &previous_int_);
}

SignalsHeld::~SignalsHeld() {
  sigaction(SIGTERM, &previous_term_, nullptr);
  sigaction(SIGINT, &previous_int_, nullptr);
  pthread_sigmask(SIG_SETMASK, &previous_mask_, nullptr);  // a pending signal is delivered here
}

ThreadsWithoutSignals::ThreadsWithoutSignals() {
  const sigset_t set = term_and_int();
  pthread_sigmask(SIG_BLOCK, &set, &previous_mask_);
}

ThreadsWithoutSignals::~ThreadsWithoutSignals() {
  pthread_sigmask(SIG_SETMASK, &previous_mask_, nullptr);
}

int interrupt_signal() { return received; }

void throw_if_interrupted(std::string_view where) {
  if (const int signal = received) throw Interrupted(signal, interrupted_message(signal, where));
}

}  // namespace inertia
