// main() for the MPI test executables: an MPI + PETSc session, full output from rank 0, failures
// only from the other ranks, and an exit code that fails if any rank failed.
// Tests themselves combine outcomes across ranks before asserting (no ASSERT before a collective).
#include <gtest/gtest.h>

#include "inertia/parallel/session.hpp"

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  inertia::Session session(&argc, &argv, {});
  if (inertia::rank_of(MPI_COMM_WORLD) != 0) GTEST_FLAG_SET(brief, true);
  int result = RUN_ALL_TESTS();
  int worst = 0;
  MPI_Allreduce(&result, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return worst;
}
