// One run per output directory (core/directory_lock.hpp).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "../support/temp_directory.hpp"
#include "inertia/core/directory_lock.hpp"
#include "inertia/core/files.hpp"

namespace inertia {
namespace {

namespace fs = std::filesystem;

using testing::TempDirectory;

std::string content(const fs::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST(DirectoryLock, ASecondHolderIsRefusedAndToldWhoHoldsIt) {
  TempDirectory dir;
  DirectoryLock first(dir.path(), "the run of a.yaml (pid 1)");
  ASSERT_EQ(first.outcome(), DirectoryLock::Outcome::taken);
  EXPECT_EQ(first.previous_holder(), "");
  EXPECT_EQ(content(dir.path() / ".inertia.lock"), "the run of a.yaml (pid 1)\n");
  // flock locks belong to the open file: a second open in this process conflicts as another
  // process would.
  DirectoryLock second(dir.path(), "the run of b.yaml (pid 2)");
  EXPECT_EQ(second.outcome(), DirectoryLock::Outcome::held);
  EXPECT_EQ(second.holder(), "the run of a.yaml (pid 1)");
  EXPECT_EQ(content(dir.path() / ".inertia.lock"), "the run of a.yaml (pid 1)\n");
}

TEST(DirectoryLock, AReleasedLockLeavesNoFileAndIsTakenAgain) {
  TempDirectory dir;
  {
    DirectoryLock first(dir.path(), "first");
    ASSERT_EQ(first.outcome(), DirectoryLock::Outcome::taken);
  }
  EXPECT_FALSE(fs::exists(dir.path() / ".inertia.lock"));
  DirectoryLock again(dir.path(), "again");
  EXPECT_EQ(again.outcome(), DirectoryLock::Outcome::taken);
  EXPECT_EQ(again.previous_holder(), "");
  DirectoryLock moved = std::move(again);  // the lock moves with the object
  EXPECT_EQ(DirectoryLock(dir.path(), "third").outcome(), DirectoryLock::Outcome::held);
}

TEST(DirectoryLock, ALockFileLeftByAKilledHolderDoesNotBlockAndIsReported) {
  TempDirectory dir;
  // What a holder killed with SIGKILL leaves: its line in a file nobody has locked (the kernel
  // released the lock with the process).
  std::ofstream(dir.path() / ".inertia.lock") << "the run of old.yaml (pid 99)\n";
  DirectoryLock lock(dir.path(), "new");
  ASSERT_EQ(lock.outcome(), DirectoryLock::Outcome::taken);
  EXPECT_EQ(lock.previous_holder(), "the run of old.yaml (pid 99)");
  EXPECT_EQ(content(dir.path() / ".inertia.lock"), "new\n");
}

TEST(DirectoryLock, AHolderLineWithControlBytesIsShownEscaped) {
  TempDirectory dir;
  std::ofstream(dir.path() / ".inertia.lock") << "run \x1b[31mred";
  DirectoryLock lock(dir.path(), "new");
  EXPECT_EQ(lock.previous_holder(), "run \\x1b[31mred");
}

TEST(DirectoryLock, AMissingDirectoryIsAnIoError) {
  TempDirectory dir;
  EXPECT_THROW(DirectoryLock(dir.path() / "missing", "x"), IoError);
}

}  // namespace
}  // namespace inertia
