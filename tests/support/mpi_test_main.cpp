// main() for the MPI test executables: an MPI + PETSc session, full output from rank 0, only
// failures (tagged with the rank) from the others, and an exit code that fails if any rank failed.
// Tests themselves combine outcomes across ranks before asserting (no ASSERT before a collective).
#include <gtest/gtest.h>

#include <cstdio>

#include "inertia/parallel/session.hpp"

namespace {

class FailurePrinter : public testing::EmptyTestEventListener {
 public:
  explicit FailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const testing::TestPartResult& r) override {
    if (r.failed())
      std::printf("[rank %d] %s:%d: Failure\n%s\n", rank_, r.file_name() ? r.file_name() : "?",
                  r.line_number(), r.message());
  }

 private:
  int rank_;
};

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  inertia::Session session(&argc, &argv, {});
  const int rank = inertia::rank_of(MPI_COMM_WORLD);
  if (rank != 0) {
    auto& listeners = testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new FailurePrinter(rank));
  }
  int result = RUN_ALL_TESTS();
  int worst = 0;
  MPI_Allreduce(&result, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return worst;
}
