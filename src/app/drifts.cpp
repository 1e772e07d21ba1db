// Storey drifts along vertical lines.

#include "inertia/app/drifts.hpp"

namespace inertia {

DriftLines::DriftLines(const MechanicalSystem& system, const CaseFile& c) : comm_(system.comm()) {
  std::vector<CaseProbe> points;
  for (const auto& line : c.drifts) {
    first_.push_back(points.size());
    for (std::size_t i = 0; i < line.levels.size(); ++i) {
      points.push_back({cat(line.name, ".z", i),
                        {line.point[0], line.point[1], line.levels[i]},
                        line.origin,
                        {"displacement"}});
      if (i > 0) {
        storeys_.push_back(cat(line.name, ".s", i));
        heights_.push_back(line.levels[i] - line.levels[i - 1]);
      }
    }
  }
  first_.push_back(points.size());
  sites_ = locate_probes(system, points, c.path.string());
}

std::vector<std::string> DriftLines::columns() const {
  std::vector<std::string> out;
  for (const auto& s : storeys_)
    for (const char* q : {"drift_x", "drift_y", "ratio_x", "ratio_y"}) out.push_back(s + "." + q);
  return out;
}

void DriftLines::levels(Vec u, std::vector<double>& out) const {
  values_at_sites(comm_, sites_, u, out);
}

void DriftLines::compute(Vec u, std::vector<double>& out) const {
  levels(u, at_levels_);
  out.assign(4 * storeys_.size(), 0.0);
  std::size_t s = 0;
  for (std::size_t line = 0; line + 1 < first_.size(); ++line)
    for (std::size_t i = first_[line] + 1; i < first_[line + 1]; ++i, ++s)
      for (std::size_t k = 0; k < 2; ++k) {
        const double d = at_levels_[3 * i + k] - at_levels_[3 * (i - 1) + k];
        out[4 * s + k] = d;
        out[4 * s + 2 + k] = d / heights_[s];
      }
}

}  // namespace inertia
