/// \file cell_layouts.cpp
/// CellLayouts: cell arrays between a run's rows and the natural row order (cell_layouts.hpp).
#include "inertia/io/cell_layouts.hpp"

#include <algorithm>

#include "inertia/core/error.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia::io {

namespace {

/// A caller's array in a Vec made without one (VecCreateMPIWithArray with no array) for the scope
/// of the object: VecPlaceArray, then VecResetArray (never throws).
class Placed {
 public:
  Placed(Vec v, double* values) : v_(v) {
    static double none = 0;  // an empty span may have no storage
    INERTIA_PETSC(VecPlaceArray(v_, values ? values : &none));
  }
  Placed(const Placed&) = delete;
  Placed& operator=(const Placed&) = delete;
  ~Placed() { (void)VecResetArray(v_); }

 private:
  Vec v_;
};

}  // namespace

void CellLayouts::Layout::to_natural(std::span<double> values) {
  const Placed placed(local, values.data());
  INERTIA_PETSC(VecScatterBegin(scatter, local, natural, INSERT_VALUES, SCATTER_FORWARD));
  INERTIA_PETSC(VecScatterEnd(scatter, local, natural, INSERT_VALUES, SCATTER_FORWARD));
}

void CellLayouts::Layout::from_natural(std::span<double> values) {
  const Placed placed(local, values.data());
  INERTIA_PETSC(VecScatterBegin(scatter, natural, local, INSERT_VALUES, SCATTER_REVERSE));
  INERTIA_PETSC(VecScatterEnd(scatter, natural, local, INSERT_VALUES, SCATTER_REVERSE));
}

void CellLayouts::check(const CellArrays& cells) const {
  // The contract (CellArray), on every rank; the lowest failing rank's reason on every rank.
  std::string description;  // what every rank must agree on
  try {
    run_collectively(comm_, [&] {
      for (std::size_t k = 0; k < cells.size(); ++k) {
        const CellArray& c = cells[k];
        INERTIA_CHECK(c.stride >= 1 && c.num_global_rows >= 0, InternalError, "cell array '",
                      c.name, "': stride ", c.stride, ", ", c.num_global_rows, " rows");
        INERTIA_CHECK(c.num_global_rows <= PETSC_MAX_INT / c.stride, InternalError, "cell array '",
                      c.name, "': ", c.num_global_rows, " rows of ", c.stride,
                      " values exceed PETSc's index range (", PETSC_MAX_INT, ")");
        INERTIA_CHECK(c.values.size() == c.natural_rows.size() * static_cast<std::size_t>(c.stride),
                      InternalError, "cell array '", c.name, "': ", c.values.size(), " values for ",
                      c.natural_rows.size(), " rows of ", c.stride);
        for (const std::int64_t row : c.natural_rows)
          INERTIA_CHECK(row >= 0 && row < c.num_global_rows, InternalError, "cell array '", c.name,
                        "': natural row ", row, " is not in [0, ", c.num_global_rows, ")");
        for (std::size_t j = 0; j < k; ++j)
          INERTIA_CHECK(cells[j].name != c.name, InternalError, "cell array '", c.name,
                        "' is given twice");
        description += cat(c.name, ' ', c.stride, ' ', c.num_global_rows, '\n');
      }
    });
  } catch (const InternalError&) {
    throw;
  } catch (const Error& e) {
    throw InternalError(e.what());  // the type on the ranks that did not fail
  }
  INERTIA_CHECK(all_true(comm_, broadcast_string(comm_, description) == description), InternalError,
                "checkpoint: the ranks do not pass the same cell arrays");
}

void CellLayouts::make(Layout& l, const CellArray& c) const {
  // This rank's rows as a block vector, the natural order split by PETSc.
  l.ready = false;  // until it is complete and checked
  l.stride = c.stride;
  l.num_global_rows = c.num_global_rows;
  l.natural_rows.assign(c.natural_rows.begin(), c.natural_rows.end());
  const auto rows = static_cast<PetscInt>(c.natural_rows.size());
  PetscInt local_rows = PETSC_DECIDE, global_rows = static_cast<PetscInt>(c.num_global_rows);
  INERTIA_PETSC(PetscSplitOwnership(comm_, &local_rows, &global_rows));
  INERTIA_PETSC(VecCreateMPIWithArray(comm_, c.stride, rows * c.stride, PETSC_DECIDE, nullptr,
                                      l.local.out()));
  INERTIA_PETSC(VecCreate(comm_, l.natural.out()));
  INERTIA_PETSC(VecSetSizes(l.natural, c.stride * local_rows, c.stride * global_rows));
  INERTIA_PETSC(VecSetBlockSize(l.natural, c.stride));
  INERTIA_PETSC(VecSetType(l.natural, VECMPI));
  PetscInt begin = 0, end = 0;
  INERTIA_PETSC(VecGetOwnershipRange(l.local, &begin, &end));
  const std::vector<PetscInt> to(c.natural_rows.begin(), c.natural_rows.end());
  petsc::IndexSet from_is, to_is;
  INERTIA_PETSC(ISCreateStride(comm_, end - begin, begin, 1, from_is.out()));
  INERTIA_PETSC(ISCreateBlock(comm_, c.stride, rows, to.data(), PETSC_COPY_VALUES, to_is.out()));
  INERTIA_PETSC(VecScatterCreate(l.local, from_is, l.natural, to_is, l.scatter.out()));
  // Every natural row on exactly one rank: each entry of the natural vector gets one 1.
  std::vector<double> ones(c.values.size(), 1.0);
  {
    const Placed placed(l.local, ones.data());
    INERTIA_PETSC(VecSet(l.natural, 0.0));
    INERTIA_PETSC(VecScatterBegin(l.scatter, l.local, l.natural, ADD_VALUES, SCATTER_FORWARD));
    INERTIA_PETSC(VecScatterEnd(l.scatter, l.local, l.natural, ADD_VALUES, SCATTER_FORWARD));
  }
  PetscReal low = 1, high = 1;
  if (c.num_global_rows > 0) {
    INERTIA_PETSC(VecMin(l.natural, nullptr, &low));
    INERTIA_PETSC(VecMax(l.natural, nullptr, &high));
  }
  INERTIA_CHECK(low == 1 && high == 1, InternalError, "cell array '", c.name,
                "': the ranks' natural rows do not cover [0, ", c.num_global_rows, ") once each");
  l.ready = true;
}

std::vector<CellLayouts::Layout*> CellLayouts::prepare(const CellArrays& cells) {
  check(cells);
  std::vector<Layout*> layouts;
  for (const CellArray& c : cells) {
    Layout& l = layouts_[c.name];
    const bool same = l.ready && l.stride == c.stride && l.num_global_rows == c.num_global_rows &&
                      std::ranges::equal(l.natural_rows, c.natural_rows);
    layouts.push_back(&l);
    if (all_true(comm_, same)) continue;
    make(l, c);
  }
  return layouts;
}

}  // namespace inertia::io
