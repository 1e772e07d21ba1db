#include "inertia/system/point_state.hpp"

#include "inertia/core/error.hpp"

namespace inertia {

PointState::PointState(PointStateLayout layout, std::vector<std::int64_t> cells,
                       std::vector<std::uint8_t> points)
    : layout_(std::move(layout)), cells_(std::move(cells)), points_(std::move(points)) {
  INERTIA_CHECK(layout_.points > 0 && !layout_.components.empty(), Error, "point state '",
                layout_.name, "': a row needs at least one point and one component");
  INERTIA_CHECK(points_.empty() || points_.size() == cells_.size(), Error, "point state '",
                layout_.name, "': ", points_.size(), " point counts for ", cells_.size(), " cells");
  for (const auto n : points_)
    INERTIA_CHECK(n > 0 && n <= layout_.points, Error, "point state '", layout_.name,
                  "': a cell of ", int{n}, " points in rows of ", layout_.points);
  committed_.assign(cells_.size() * static_cast<std::size_t>(stride()), 0.0);
  trial_ = committed_;
}

double PointState::cell_average(std::size_t r, int k) const {
  const auto row = committed(r);
  double sum = 0;
  const int n = points(r);
  for (int p = 0; p < n; ++p) sum += row[p * num_components() + k];
  return sum / n;
}

}  // namespace inertia
