// Section forces through planes and between regions.

#include "inertia/app/sections.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "inertia/core/error.hpp"
#include "inertia/fe/element.hpp"
#include "inertia/fe/hex8_technology.hpp"
#include "inertia/parallel/petsc.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/beams.hpp"
#include "inertia/system/shells.hpp"

namespace inertia {

namespace {

/// The diagonal of the model's bounding box (all ranks; collective): the scale of the
/// on-the-plane tolerance.
double model_size(MPI_Comm comm, const LocalMesh& lm) {
  double box[6] = {1e300, 1e300, 1e300, 1e300, 1e300, 1e300};  // min x, y, z, -max x, y, z
  for (std::size_t n = 0; n < lm.coords.size() / 3; ++n)
    for (int i = 0; i < 3; ++i) {
      box[i] = std::min(box[i], lm.coords[3 * n + static_cast<std::size_t>(i)]);
      box[3 + i] = std::min(box[3 + i], -lm.coords[3 * n + static_cast<std::size_t>(i)]);
    }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, box, 6, MPI_DOUBLE, MPI_MIN, comm));
  return std::hypot(-box[3] - box[0], -box[4] - box[1], -box[5] - box[2]);
}

/// Whether local cell k is a solid: an element with a material, of dimension 3.
bool solid_cell(const LocalMesh& lm, const ElementAssignment& elements, std::int64_t k) {
  return lm.cell_is_element[static_cast<std::size_t>(k)] &&
         elements.cell_material[static_cast<std::size_t>(k)] >= 0 &&
         info(lm.cell_types[static_cast<std::size_t>(k)]).dim == 3;
}

/// Whether local cell k is a beam or a shell (a beam2, shell4 or shell3 element cell: its nodes,
/// then their rotation nodes).
bool structural_cell(const LocalMesh& lm, std::int64_t k) {
  return lm.cell_is_element[static_cast<std::size_t>(k)] &&
         rotation_nodes_from(lm.cell_types[static_cast<std::size_t>(k)]) > 0;
}

/// A section's plane: its point and unit normal.
struct Plane {
  std::array<double, 3> p, n;
  /// The signed distance of y from the plane (positive on the normal's side).
  double distance(const double* y) const {
    return (y[0] - p[0]) * n[0] + (y[1] - p[1]) * n[1] + (y[2] - p[2]) * n[2];
  }
};

Plane section_plane(const CaseSection& section) {
  Plane plane{section.point, section.normal};
  const double length = std::hypot(plane.n[0], plane.n[1], plane.n[2]);
  for (double& v : plane.n) v /= length;
  return plane;
}

/// A cut between regions: the indices of its regions A and B in lm.regions. Throws InputError
/// (after `where`) for an unknown region or one that is not a volume region.
std::array<int, 2> cut_regions(const LocalMesh& lm, const CaseSection& section,
                               const std::string& where) {
  std::array<int, 2> index{-1, -1};
  const std::string* names[2] = {&section.region_a, &section.region_b};
  for (int i = 0; i < 2; ++i) {
    for (std::size_t r = 0; r < lm.regions.size(); ++r)
      if (lm.regions[r].name == *names[i]) index[i] = static_cast<int>(r);
    if (index[i] < 0) throw InputError(cat(where, "unknown region '", *names[i], "'"));
    if (lm.regions[static_cast<std::size_t>(index[i])].dim != 3)
      throw InputError(cat(where, "region '", *names[i], "' is not a volume region"));
  }
  return index;
}

/// The side of each local solid, beam or shell cell: +1 A (centroid on the plane's normal's side,
/// or in region A), -1 B (the other side, or region B), 0 none; and each side's number of cells on
/// this rank (`counts`). Marks per node in `marks` (the local form, before the reverse scatter):
/// component 0 counts A's cells at the node, 1 B's, 2 (a plane) A's with the node on the plane.
/// A beam's or shell's rotation nodes are not marked: they are cut with their nodes
/// (add_cut_cells).
std::vector<int> mark_sides(const LocalMesh& lm, const ElementAssignment& elements,
                            const std::array<int, 2>* regions, const Plane& plane, double size,
                            Vec marks, std::int64_t counts[2]) {
  std::vector<int> side(static_cast<std::size_t>(lm.num_cells()), 0);
  // The whole local form: VecZeroEntries would leave the ghosts of the previous section's
  // marks, which the reverse scatter would add again.
  petsc::GhostedArray m(marks);
  std::fill(m.span().begin(), m.span().end(), 0.0);
  for (std::int64_t k = 0; k < lm.num_cells(); ++k) {
    if (!solid_cell(lm, elements, k) && !structural_cell(lm, k)) continue;
    const auto nodes = lm.nodes_of(k);
    int& here = side[static_cast<std::size_t>(k)];
    if (regions) {
      const auto region = lm.cell_regions[static_cast<std::size_t>(k)];
      here = region == (*regions)[0] ? 1 : region == (*regions)[1] ? -1 : 0;
    } else {
      double centroid[3] = {0, 0, 0};
      for (std::size_t a = 0; a < nodes.size(); ++a)
        for (int i = 0; i < 3; ++i)
          centroid[i] +=
              lm.coords[3 * static_cast<std::size_t>(nodes[a]) + static_cast<std::size_t>(i)] /
              static_cast<double>(nodes.size());
      here = plane.distance(centroid) > 0 ? 1 : -1;
    }
    if (here == 0) continue;
    ++counts[here > 0 ? 0 : 1];
    for (const auto node : nodes) {
      if (lm.is_rotation(node)) continue;
      const double* y = &lm.coords[3 * static_cast<std::size_t>(node)];
      if (here > 0) {
        m[3 * node] += 1;
        if (!regions && std::abs(plane.distance(y)) <= 1e-9 * size) m[3 * node + 2] += 1;
      } else {
        m[3 * node + 1] += 1;
      }
    }
  }
  return side;
}

/// The cut's nodes (local nodes of A marked by B's cells or on the plane), from the summed
/// marks, and over all ranks their number and the sum of their coordinates (collective).
struct CutNodes {
  std::vector<char> cut;           ///< per local node
  double owned[4] = {0, 0, 0, 0};  ///< number, sum of x, y, z: the owned cut nodes of all ranks
};

CutNodes find_cut_nodes(MPI_Comm comm, const LocalMesh& lm, Vec marks) {
  CutNodes c;
  c.cut.assign(lm.coords.size() / 3, 0);
  {
    petsc::GhostedRead m(marks);
    for (std::size_t node = 0; node < c.cut.size(); ++node) {
      const auto i = static_cast<PetscInt>(3 * node);
      c.cut[node] = m[i] > 0 && (m[i + 1] > 0 || m[i + 2] > 0);
      if (c.cut[node] && static_cast<std::int32_t>(node) < lm.num_owned) {
        c.owned[0] += 1;
        for (int d = 0; d < 3; ++d)
          c.owned[1 + d] += lm.coords[3 * node + static_cast<std::size_t>(d)];
      }
    }
  }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, c.owned, 4, MPI_DOUBLE, MPI_SUM, comm));
  return c;
}

}  // namespace

SectionCuts::SectionCuts(const MechanicalSystem& system, const CaseFile& c) : comm_(system.comm()) {
  const LocalMesh& lm = system.mesh();
  for (const auto& load : system.spec().loads)
    if (load.kind == Load::Kind::gravity)
      for (int i = 0; i < 3; ++i)
        gravity_[static_cast<std::size_t>(i)] += load.value[static_cast<std::size_t>(i)];
  const double size = model_size(comm_, lm);  // for the on-the-plane tolerance
  petsc::Vector marks = system.assembler().create_vector();
  for (std::size_t s = 0; s < c.sections.size(); ++s) {
    const CaseSection& section = c.sections[s];
    names_.push_back(section.name);
    const std::string where = cat(c.path.string(), ":", section.origin.line, ": output.sections[",
                                  s, "] '", section.name, "': ");
    const Plane plane = section_plane(section);
    std::array<double, 3> p = plane.p;
    // A cut between regions: their indices (volume regions of the mesh).
    const bool regions = !section.region_a.empty();
    const std::array<int, 2> region_index =
        regions ? cut_regions(lm, section, where) : std::array<int, 2>{-1, -1};
    std::int64_t counts[2] = {0, 0};  // solid cells in A, in B
    const std::vector<int> side =
        mark_sides(lm, system.assembler().elements(), regions ? &region_index : nullptr, plane,
                   size, marks, counts);
    INERTIA_PETSC(VecGhostUpdateBegin(marks, ADD_VALUES, SCATTER_REVERSE));
    INERTIA_PETSC(VecGhostUpdateEnd(marks, ADD_VALUES, SCATTER_REVERSE));
    INERTIA_PETSC(VecGhostUpdateBegin(marks, INSERT_VALUES, SCATTER_FORWARD));
    INERTIA_PETSC(VecGhostUpdateEnd(marks, INSERT_VALUES, SCATTER_FORWARD));
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_INT64_T, MPI_SUM, comm_));
    if (regions)
      for (int i = 0; i < 2; ++i)
        if (counts[i] == 0)
          throw InputError(cat(where, "region '", i == 0 ? section.region_a : section.region_b,
                               "' has no solid cells with a material"));
    const CutNodes cut = find_cut_nodes(comm_, lm, marks);
    const auto total = static_cast<std::int64_t>(cut.owned[0]);
    if (total == 0)
      throw InputError(
          regions
              ? cat(where, "the regions '", section.region_a, "' and '", section.region_b,
                    "' share no node")
              : cat(where,
                    "the plane cuts no solid, beam or shell between cells (no node of the cells on "
                    "its normal's side lies on it or is shared with the other side)"));
    // A cut between regions: the moments about the cut nodes' centroid.
    if (regions)
      for (int d = 0; d < 3; ++d) p[static_cast<std::size_t>(d)] = cut.owned[1 + d] / cut.owned[0];
    cut_nodes_.push_back(total);
    centres_.push_back(p);
    add_cut_cells(system, static_cast<int>(s), side, cut.cut, p, where);
  }
}

namespace {

/// A cell's matrices for a section (nd = its number of DOFs, 3 per node): K, M (consistent or
/// the lumped diagonal) and its gravity force per unit factor g.
struct CellMatrices {
  int nd = 0;
  std::vector<double> K, M, g;
  /// A corotational or plastic shell or beam: its internal force at u (K is not), and whether its
  /// nodes move and turn large (lever arms where they are now, rotation rows to moments).
  std::function<void(std::span<const PetscScalar>, double*)> force;
  bool large = false;
  bool turns = false;  ///< its rotation nodes' rows conjugate to total rotation vectors
};

/// A solid's: K (a linear-elastic one's; a plastic or hyperelastic one's force is its term's:
/// out.force), M (consistent or the lumped diagonal) and g; false for a nonlinear solid no term
/// holds.
bool solid_matrices(const MechanicalSystem& system, std::int64_t k, const double gravity[3],
                    CellMatrices& out) {
  const LocalMesh& lm = system.mesh();
  const Assembler& assembler = system.assembler();
  const ElementAssignment& elements = assembler.elements();
  const auto& material =
      elements
          .materials[static_cast<std::size_t>(elements.cell_material[static_cast<std::size_t>(k)])];
  out.force = nullptr;
  if (!material.is_linear()) {  // plastic or hyperelastic: its term's force at u
    for (const auto& term : system.terms())
      if (term->holds_nonlinear_solid(k)) {
        const ForceTerm* holder = term.get();
        out.force = [holder, k](std::span<const PetscScalar> u, double* f) {
          holder->nonlinear_solid_force(u, k, f);
        };
        out.large = material.model->finite_strain();
      }
    if (!out.force) return false;
  }
  const CellType t = lm.cell_types[static_cast<std::size_t>(k)];
  const auto nodes = lm.nodes_of(k);
  const int nd = out.nd = 3 * static_cast<int>(nodes.size());
  double x[3 * fe::max_nodes];
  assembler.cell_coordinates(k, x);
  const std::span<const double> xs(x, static_cast<std::size_t>(nd));
  out.K.assign(static_cast<std::size_t>(nd * nd), 0.0);
  out.M.assign(static_cast<std::size_t>(nd * nd), 0.0);
  out.g.assign(static_cast<std::size_t>(nd), 0.0);
  if (!out.force)
    fe::stiffness_linear_elastic(t, xs, material.lambda(), material.mu(), material.technology,
                                 out.K);
  if (system.spec().mass == MassTreatment::lumped) {
    std::vector<double> lumped(nodes.size());
    fe::mass_lumped(t, xs, material.density, lumped);
    for (int a = 0; a < nd; ++a)
      out.M[static_cast<std::size_t>(a * nd + a)] = lumped[static_cast<std::size_t>(a / 3)];
  } else {
    fe::mass_consistent(t, xs, material.density, out.M);
  }
  const double b[3] = {material.density * gravity[0], material.density * gravity[1],
                       material.density * gravity[2]};
  fe::body_force(t, xs, b, out.g);
  return true;
}

/// A linear elastic beam's, from its force term (false for a corotational or fiber beam): the
/// 12 DOFs [u0, u1, theta0, theta1], its weight as the consistent loads the term applies
/// (condensed for its end releases, as K and M are).
bool beam_matrices(const MechanicalSystem& system, std::int64_t k, const double gravity[3],
                   CellMatrices& out) {
  BeamTermInfo::LinearCell cell;
  const BeamTermInfo* term = nullptr;
  out.force = nullptr;
  for (const auto& t : system.terms())
    if (const auto* beams = dynamic_cast<const BeamTermInfo*>(t.get())) {
      if (beams->linear_cell(k, cell)) {
        term = beams;
      } else if (beams->nonlinear_cell(k, cell)) {
        term = beams;
        out.force = [beams, k](std::span<const PetscScalar> u, double* f) {
          beams->cell_force(u, k, f);
        };
        out.large = out.turns = beams->large_rotations();
      }
    }
  if (!term) return false;
  out.nd = 12;
  out.K.assign(cell.K.begin(), cell.K.end());
  if (system.spec().mass == MassTreatment::lumped) {
    out.M.assign(144, 0.0);
    for (int a = 0; a < 12; ++a) out.M[static_cast<std::size_t>(13 * a)] = cell.lumped[a];
  } else {
    out.M.assign(cell.M.begin(), cell.M.end());
  }
  double x[12];
  system.assembler().cell_coordinates(k, x);
  const double q[3] = {cell.mass_per_length * gravity[0], cell.mass_per_length * gravity[1],
                       cell.mass_per_length * gravity[2]};
  out.g.assign(12, 0.0);
  fe::beam_uniform_load(x, x + 3, q, out.g.data());
  term->condense_load(k, out.g);  // a beam with end releases: the condensed loads it applies
  return true;
}

/// A shell's, from its force term: [u0 .., theta0 ..], K (a linear elastic shell's; a
/// corotational or plastic one's force is its term's: out.force), its lumped mass (its consistent
/// one is the same) and its weight at its nodes, as the term applies it.
bool shell_matrices(const MechanicalSystem& system, std::int64_t k, const double gravity[3],
                    CellMatrices& out) {
  ShellTermInfo::LinearCell cell;
  bool found = false;
  out.force = nullptr;
  for (const auto& t : system.terms())
    if (const auto* shells = dynamic_cast<const ShellTermInfo*>(t.get())) {
      if (found) break;
      found = shells->linear_cell(k, cell);
      if (!found && shells->nonlinear_cell(k, cell)) {
        found = true;
        out.force = [shells, k](std::span<const PetscScalar> u, double* f) {
          shells->cell_force(u, k, f);
        };
        out.large = out.turns = true;  // corotational, plastic (corotational) and BT
      }
    }
  if (!found) return false;
  const int nd = out.nd = static_cast<int>(cell.lumped.size());
  const int n = nd / 6;  // nodes with translations
  out.K = std::move(cell.K);
  out.M.assign(static_cast<std::size_t>(nd * nd), 0.0);
  for (int a = 0; a < nd; ++a)
    out.M[static_cast<std::size_t>((nd + 1) * a)] = cell.lumped[static_cast<std::size_t>(a)];
  out.g.assign(static_cast<std::size_t>(nd), 0.0);
  for (int a = 0; a < n; ++a)
    for (int i = 0; i < 3; ++i)
      out.g[static_cast<std::size_t>(3 * a + i)] = cell.mass / n * gravity[i];
  return true;
}

/// A corotational or plastic shell's force on a node's rotation DOFs, conjugate to its total
/// rotation vector psi (f = T(psi)^T m, T the exponential's left tangent, fe/shell_bt.hpp), as
/// the moment m about the node: f <- T^-T f. T = I + c2 [psi]x + c3 [psi]x^2, c2 = (1 - cos a)
/// / a^2, c3 = (a - sin a) / a^3, a = |psi|.
void rotation_force_to_moment(const double psi[3], double f[3]) {
  const double a2 = psi[0] * psi[0] + psi[1] * psi[1] + psi[2] * psi[2];
  double c2, c3;
  if (a2 < 1e-6) {
    c2 = 0.5 - a2 / 24 * (1 - a2 / 30);
    c3 = 1.0 / 6 - a2 / 120 * (1 - a2 / 42);
  } else {
    const double a = std::sqrt(a2);
    c2 = (1 - std::cos(a)) / a2;
    c3 = (a - std::sin(a)) / (a2 * a);
  }
  double A[3][3];  // T^T = (1 - c3 a^2) I - c2 [psi]x + c3 psi psi^T
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) A[i][j] = c3 * psi[i] * psi[j] + (i == j ? 1 - c3 * a2 : 0.0);
  A[0][1] += c2 * psi[2], A[0][2] -= c2 * psi[1], A[1][2] += c2 * psi[0];
  A[1][0] -= c2 * psi[2], A[2][0] += c2 * psi[1], A[2][1] -= c2 * psi[0];
  const double det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
                     A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                     A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
  double m[3];
  for (int i = 0; i < 3; ++i) {  // Cramer's rule: column i replaced by f
    double B[3][3];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) B[r][c] = c == i ? f[r] : A[r][c];
    m[i] = (B[0][0] * (B[1][1] * B[2][2] - B[1][2] * B[2][1]) -
            B[0][1] * (B[1][0] * B[2][2] - B[1][2] * B[2][0]) +
            B[0][2] * (B[1][0] * B[2][1] - B[1][1] * B[2][0])) /
           det;
  }
  for (int i = 0; i < 3; ++i) f[i] = m[i];
}

}  // namespace

void SectionCuts::add_cut_cells(const MechanicalSystem& system, int section,
                                const std::vector<int>& side, const std::vector<char>& cut,
                                const std::array<double, 3>& p, const std::string& where) {
  const LocalMesh& lm = system.mesh();
  int nonlinear = 0;  // bit 1: a solid, bit 2: a beam, bit 3: a shell
  CellMatrices c;
  for (std::int64_t k = 0; k < lm.num_cells(); ++k) {
    if (side[static_cast<std::size_t>(k)] <= 0) continue;
    const auto nodes = lm.nodes_of(k);
    const CellType type = lm.cell_types[static_cast<std::size_t>(k)];
    const auto rotations = static_cast<std::size_t>(rotation_nodes_from(type));
    const bool beam = type == CellType::beam2, shell = rotations > 0 && !beam;
    Entry e;
    e.section = section;
    for (std::size_t a = 0; a < nodes.size(); ++a) {
      // A beam's or shell's rotation nodes [r0, ...] are cut with their nodes [n0, ...].
      const std::size_t node = rotations > 0 && a >= rotations ? a - rotations : a;
      if (cut[static_cast<std::size_t>(nodes[node])])
        for (int i = 0; i < 3; ++i) e.rows.push_back(3 * static_cast<int>(a) + i);
    }
    if (e.rows.empty()) continue;
    if (!(beam    ? beam_matrices(system, k, gravity_.data(), c)
          : shell ? shell_matrices(system, k, gravity_.data(), c)
                  : solid_matrices(system, k, gravity_.data(), c))) {
      nonlinear |= beam ? 2 : shell ? 4 : 1;
      continue;
    }
    const int nd = c.nd;
    for (const auto node : nodes)
      for (int i = 0; i < 3; ++i) e.dofs.push_back(3 * static_cast<PetscInt>(node) + i);
    if (c.force) e.force = c.force, e.large = c.large, e.turns = c.turns, nonlinear_cells_ = true;
    for (const int r : e.rows) {
      if (!c.force)
        e.k.insert(e.k.end(), &c.K[static_cast<std::size_t>(r * nd)],
                   &c.K[static_cast<std::size_t>(r * nd)] + nd);
      e.m.insert(e.m.end(), &c.M[static_cast<std::size_t>(r * nd)],
                 &c.M[static_cast<std::size_t>(r * nd)] + nd);
      e.g.push_back(c.g[static_cast<std::size_t>(r)]);
      const auto node = nodes[static_cast<std::size_t>(r / 3)];
      e.moment.push_back(lm.is_rotation(node) ? 1 : 0);
      const double* y = &lm.coords[3 * static_cast<std::size_t>(node)];
      e.lever.push_back({y[0] - p[0], y[1] - p[1], y[2] - p[2]});
    }
    entries_.push_back(std::move(e));
  }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &nonlinear, 1, MPI_INT, MPI_BOR, comm_));
  INERTIA_CHECK(!nonlinear, InternalError, where, "a cell at the cut that no force term holds");
  int any = nonlinear_cells_ ? 1 : 0;
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, comm_));
  nonlinear_cells_ = any != 0;
  if (nonlinear_cells_ && system.rayleigh().stiffness != 0)
    throw InputError(cat(where,
                         "the cells at the cut are plastic or hyperelastic and the damping has a "
                         "stiffness part (rayleigh stiffness): their damping force is not a cell's "
                         "K v; use mass-proportional damping, or linear elastic cells at the cut "
                         "(corotational shells and beams count as nonlinear)"));
}

void SectionCuts::compute(Vec u, Vec v, Vec a, double alpha_m, double alpha_k,
                          double gravity_factor, std::vector<double>& out) const {
  out.assign(6 * names_.size(), 0.0);
  petsc::GhostedRead ul(u), vl(v);
  std::optional<petsc::GhostedRead> al;
  if (a) al.emplace(a);
  std::vector<double> cell_force;
  for (const Entry& e : entries_) {
    const std::size_t nd = e.dofs.size();
    double* f = &out[6 * static_cast<std::size_t>(e.section)];
    if (e.force) {  // a corotational or plastic cell: its force at u (NaN: collapsed)
      cell_force.assign(nd, 0.0);
      try {
        e.force(ul.span(), cell_force.data());
      } catch (const SolverError&) {
        std::fill(cell_force.begin(), cell_force.end(), NAN);
      }
      if (e.turns)
        for (std::size_t a = nd / 6; a < nd / 3; ++a) {  // the rotation nodes' rows: moments
          const double psi[3] = {ul[e.dofs[3 * a]], ul[e.dofs[3 * a + 1]], ul[e.dofs[3 * a + 2]]};
          rotation_force_to_moment(psi, &cell_force[3 * a]);
        }
    }
    for (std::size_t r = 0; r < e.rows.size(); ++r) {
      double value = -gravity_factor * e.g[r];
      const double* m = &e.m[r * nd];
      if (e.force) {
        value += cell_force[static_cast<std::size_t>(e.rows[r])];
        for (std::size_t j = 0; j < nd; ++j) {
          const PetscInt d = e.dofs[j];
          value += m[j] * ((al ? (*al)[d] : 0.0) + alpha_m * vl[d]);
        }
      } else {
        const double* k = &e.k[r * nd];
        for (std::size_t j = 0; j < nd; ++j) {
          const PetscInt d = e.dofs[j];
          value +=
              k[j] * (ul[d] + alpha_k * vl[d]) + m[j] * ((al ? (*al)[d] : 0.0) + alpha_m * vl[d]);
        }
      }
      const int i = e.rows[r] % 3;
      if (e.moment[r]) {  // a beam's or shell's rotation DOF: a moment
        f[3 + i] += value;
        continue;
      }
      f[i] += value;
      // moment: lever x (value e_i); a corotational or plastic shell's node where it is now
      auto l = e.lever[r];
      if (e.large)
        for (int q = 0; q < 3; ++q)
          l[static_cast<std::size_t>(q)] += ul[e.dofs[static_cast<std::size_t>(e.rows[r] - i + q)]];
      const double force[3] = {i == 0 ? value : 0.0, i == 1 ? value : 0.0, i == 2 ? value : 0.0};
      f[3] += l[1] * force[2] - l[2] * force[1];
      f[4] += l[2] * force[0] - l[0] * force[2];
      f[5] += l[0] * force[1] - l[1] * force[0];
    }
  }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, out.data(), static_cast<int>(out.size()), MPI_DOUBLE,
                            MPI_SUM, comm_));
}

}  // namespace inertia
