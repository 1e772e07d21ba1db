// --check's verification of the run's directories (core/files.hpp, directory_creation_problem):
// without creating anything.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "../support/temp_directory.hpp"
#include "inertia/core/files.hpp"

namespace inertia {
namespace {

namespace fs = std::filesystem;

using testing::TempDirectory;

TEST(DirectoryCreationProblem, NoneForACreatableOrWritableDirectoryAndNothingCreated) {
  TempDirectory dir;
  EXPECT_EQ(directory_creation_problem(dir.path(), "output directory"), "");
  EXPECT_EQ(directory_creation_problem(dir.path() / "a" / "b" / "c", "output directory"), "");
  EXPECT_FALSE(fs::exists(dir.path() / "a"));
}

TEST(DirectoryCreationProblem, AFileInThePathIsNamed) {
  TempDirectory dir;
  std::ofstream(dir.path() / "blocker") << "x";
  const std::string problem =
      directory_creation_problem(dir.path() / "blocker" / "out", "output directory");
  EXPECT_EQ(problem, (dir.path() / "blocker" / "out").string() +
                         ": cannot create the output directory (" +
                         (dir.path() / "blocker").string() + " is not a directory)");
  EXPECT_NE(directory_creation_problem(dir.path() / "blocker", "output directory"), "");
  EXPECT_FALSE(fs::exists(dir.path() / "blocker" / "out"));
}

TEST(DirectoryCreationProblem, AnAncestorWithoutWritePermissionIsNamed) {
  if (::geteuid() == 0) GTEST_SKIP() << "root may write anywhere but on read-only file systems";
  TempDirectory dir;
  fs::create_directory(dir.path() / "locked");
  fs::permissions(dir.path() / "locked", fs::perms::owner_read | fs::perms::owner_exec);
  const std::string problem =
      directory_creation_problem(dir.path() / "locked" / "out", "checkpoint directory");
  fs::permissions(dir.path() / "locked", fs::perms::owner_all);
  EXPECT_NE(problem.find("cannot create the checkpoint directory ("), std::string::npos) << problem;
  EXPECT_NE(problem.find("Permission denied"), std::string::npos) << problem;
}

}  // namespace
}  // namespace inertia
