#include "inertia/app/phases.hpp"

#include <sstream>

#include "inertia/core/error.hpp"
#include "inertia/core/files.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia {

void Phases::write_csv(MPI_Comm comm, const std::filesystem::path& path, double total) const {
  std::vector<double> local, global(entries_.size() + 1);
  for (const auto& e : entries_) local.push_back(e.seconds);
  local.push_back(total);
  INERTIA_MPI(MPI_Allreduce(local.data(), global.data(), static_cast<int>(local.size()), MPI_DOUBLE,
                            MPI_MAX, comm));
  run_on_root(comm, [&] {
    std::ostringstream out;
    out << "phase,seconds,calls\n" << std::setprecision(9);
    for (std::size_t i = 0; i < entries_.size(); ++i)
      out << entries_[i].name << "," << global[i] << "," << entries_[i].calls << "\n";
    out << "total," << global.back() << ",1\n";
    write_file_atomically(path, out.str());
  });
}

}  // namespace inertia
