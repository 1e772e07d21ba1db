#pragma once
/// \file cell_layouts.hpp
/// Cell arrays (rows of values per element cell, keyed by natural row) and their redistribution
/// between a run's rows, on any rank count, and the natural row order a checkpoint stores
/// (io/checkpoint.hpp).

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "inertia/parallel/petsc.hpp"

namespace inertia::io {

/// Rows of `stride` values keyed by natural row (natural_order of the rows' cell tags), e.g. a
/// force term's state at its quadrature points. Written as dataset `name` of num_global_rows x
/// stride (natural row order). Every rank passes the same arrays in the same order with the same
/// name, stride and num_global_rows; the ranks' natural_rows together are [0, num_global_rows),
/// each row on one rank. A rank may have no rows (empty spans), an array no rows at all.
struct CellArray {
  std::string name;
  int stride = 1;
  std::int64_t num_global_rows = 0;
  std::span<const std::int64_t> natural_rows;  ///< per local row: its natural row
  std::span<double> values;                    ///< local rows x stride; written from, read into
};
using CellArrays = std::vector<CellArray>;

/// The PETSc objects that move cell arrays to and from the natural row order, one per array
/// name, made on first use and kept while its rows stay the same.
class CellLayouts {
 public:
  /// A cell array's layout.
  struct Layout {
    int stride = 0;
    std::int64_t num_global_rows = 0;
    std::vector<std::int64_t> natural_rows;
    petsc::Vector local;              ///< this rank's rows (the caller's values placed in it)
    petsc::Vector natural;            ///< natural row order, block size `stride`
    petsc::VecScatterHandle scatter;  ///< local -> natural
    bool ready = false;               ///< made and checked for these rows

    /// Collective: `values` (this rank's rows) into `natural`.
    void to_natural(std::span<double> values);
    /// Collective: `natural` into `values` (this rank's rows).
    void from_natural(std::span<double> values);
  };

  explicit CellLayouts(MPI_Comm comm) : comm_(comm) {}

  /// Collective. The layouts of `cells` (made or remade where the rows changed), in their order;
  /// InternalError on every rank for cells that break CellArray's contract (values not rows x
  /// stride, a natural row out of range or twice, the ranks disagreeing on an array).
  std::vector<Layout*> prepare(const CellArrays& cells);

 private:
  MPI_Comm comm_;
  std::map<std::string, Layout> layouts_;

  /// Collective: CellArray's contract, checked on every rank (InternalError).
  void check(const CellArrays& cells) const;
  /// Collective: l made anew for c's rows, and checked to cover every natural row once.
  void make(Layout& l, const CellArray& c) const;
};

}  // namespace inertia::io
