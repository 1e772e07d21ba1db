// inertia: distributed-memory finite-element structural dynamics. See README.md.
#include "inertia/app/run.hpp"

int main(int argc, char** argv) { return inertia::run_main(argc, argv); }
