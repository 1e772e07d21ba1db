#include "inertia/app/run_directories.hpp"

#include <unistd.h>

#include <cstring>
#include <ctime>

#include "inertia/app/case_file.hpp"
#include "inertia/app/command_line.hpp"
#include "inertia/core/error.hpp"
#include "inertia/core/files.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia {

namespace {

/// The directories the run will write to (the output directory; the checkpoint directory with
/// checkpoints, or a modal analysis's output directory), as they are: nothing is created.
struct RunDirectory {
  std::filesystem::path path;
  const char* what;  ///< "output directory"
  const char* key;   ///< the case file's key for it
};
std::vector<RunDirectory> run_directories(const CaseFile& c) {
  std::vector<RunDirectory> dirs{{c.output_directory, "output directory", "output.directory"}};
  if (c.has_time && c.checkpoint_every > 0)
    dirs.push_back({c.checkpoint_directory, "checkpoint directory", "output.checkpoint.directory"});
  return dirs;
}

}  // namespace

void check_directories(MPI_Comm comm_, const CaseFile& c) {
  run_on_root(comm_, [&] {
    for (const auto& [dir, what, key] : run_directories(c))
      if (const std::string problem = directory_creation_problem(dir, what); !problem.empty())
        throw InputError(problem);
  });
}

std::vector<DirectoryLock> lock_directories(MPI_Comm comm_, const CaseFile& c, std::ostream& log_) {
  std::vector<DirectoryLock> locks_;
  std::string notes;  // the log's lines, from rank 0
  run_on_root(comm_, [&] {
    std::error_code ec;
    const auto case_path = std::filesystem::absolute(c.path, ec);
    char host[256] = "";
    ::gethostname(host, sizeof host - 1);
    const std::time_t now = std::time(nullptr);
    char started[32] = "";
    std::strftime(started, sizeof started, "%Y-%m-%d %H:%M:%S", std::localtime(&now));
    const std::string holder =
        printable(cat("the run of ", (ec ? c.path : case_path).string(), " (pid ", ::getpid(),
                      " on host ", host, ", started ", started, ")"));
    for (const auto& [dir, what, key] : run_directories(c)) {
      prepare_directory(dir, what);
      if (!locks_.empty() && std::filesystem::equivalent(dir, locks_[0].path().parent_path(), ec))
        continue;  // the checkpoints go to the output directory itself
      DirectoryLock lock(dir, holder);
      const std::string name = printable(dir.string());
      switch (lock.outcome()) {
        case DirectoryLock::Outcome::held:
          throw InputError(cat(name, ": in use by ",
                               lock.holder().empty() ? "another run (starting)" : lock.holder(),
                               "; wait for it to end, or give this run another ", key));
        case DirectoryLock::Outcome::unsupported:
          notes += cat("warning   ", name, ": cannot lock the ", what,
                       " (flock: ", std::strerror(lock.error()),
                       "; a file system without locks): nothing stops another run from "
                       "writing into it at the same time\n");
          break;
        case DirectoryLock::Outcome::taken:
          if (!lock.previous_holder().empty())
            notes += cat("lock      ", name, ": ", lock.previous_holder(),
                         " ended without releasing the ", what,
                         " (killed or crashed); its files may be incomplete\n");
          break;
        case DirectoryLock::Outcome::none:
          break;
      }
      locks_.push_back(std::move(lock));
    }
  });
  log_ << notes;
  return locks_;
}

}  // namespace inertia
