#pragma once
/// \file temp_directory.hpp
/// A fresh empty directory for a unit test, removed with everything in it afterwards.

#include <stdlib.h>

#include <filesystem>
#include <string>

namespace inertia::testing {

/// A fresh empty directory under the system's temporary directory, removed afterwards.
class TempDirectory {
 public:
  TempDirectory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "inertia_test_XXXXXX").string();
    path_ = ::mkdtemp(pattern.data());
  }
  ~TempDirectory() { std::filesystem::remove_all(path_); }
  TempDirectory(const TempDirectory&) = delete;
  TempDirectory& operator=(const TempDirectory&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace inertia::testing
