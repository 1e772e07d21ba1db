// Shells (shells.hpp): the case file's `shells:`, one linear term per shell region. A shell cell
// (shell4, shell3, shell8) is a Gmsh quad4, tri3 or quad8 cell of the region with its nodes'
// rotation nodes (mesh/rotation_nodes.hpp); the element is fe/shell.hpp's MITC4, fe/shell3.hpp's
// triangle or fe/shell8.hpp's curved quadrilateral, whose DOF order [u0.., th0..] is the cell's
// node order.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "inertia/assembly/assembler.hpp"
#include "inertia/core/case_node.hpp"
#include "inertia/core/error.hpp"
#include "inertia/core/text.hpp"
#include "inertia/fe/hyperelastic.hpp"
#include "inertia/fe/shell.hpp"
#include "inertia/fe/shell3.hpp"
#include "inertia/fe/shell8.hpp"
#include "inertia/mesh/rotation_nodes.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/shells.hpp"
#include "shell_term.hpp"
#include "structural_regions.hpp"

namespace inertia {

namespace {

ShellInput parse_shell(const case_yaml::Node& s) {
  s.expect_map({"region", "thickness", "drilling", "shear_factor", "kinematics",
                "integration_points", "integration", "formulation", "hourglass", "offset"});
  ShellInput in;
  in.where = cat(*s.file, ":", s.line(), ": ", s.key);
  if (!s.has("region")) s.fail("missing key 'region' (the surface region of the shells)");
  in.region = s["region"].text();
  if (!s.has("thickness")) s.fail("missing key 'thickness' (the shells' thickness)");
  in.thickness = s["thickness"].positive();
  if (s.has("drilling")) in.drilling = s["drilling"].positive();
  if (s.has("offset")) {
    // The nodes' surface above the mid-surface: top, middle, bottom (LS-DYNA's NLOC 1, 0, -1) or
    // a length along the shells' normal.
    const case_yaml::Node o = s["offset"];
    const std::string text = o.text();
    if (text == "top" || text == "middle" || text == "bottom")
      in.offset = text == "top" ? 0.5 * in.thickness : text == "bottom" ? -0.5 * in.thickness : 0;
    else {
      char* end = nullptr;
      const double v = std::strtod(text.c_str(), &end);
      if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v))
        o.fail(cat("must be top, middle, bottom or a length (got '", excerpt(text), "')"));
      in.offset = o.number();
    }
  }
  if (s.has("shear_factor")) {
    in.shear_factor = s["shear_factor"].positive();
    if (in.shear_factor > 1) s["shear_factor"].fail("must be at most 1 (5/6 for a solid section)");
  }
  if (s.has("kinematics")) {
    in.corotational = s["kinematics"].choice({"linear", "corotational"}) == "corotational";
    in.kinematics_given = true;
  }
  if (s.has("integration"))
    in.integration = s["integration"].choice({"simpson", "lobatto", "gauss"});
  if (s.has("integration_points")) {
    const bool gauss = in.integration == "gauss";
    in.integration_points = static_cast<int>(s["integration_points"].integer_in(gauss ? 2 : 3, 15));
    if (in.integration == "simpson" && in.integration_points % 2 == 0)
      s["integration_points"].fail("Simpson's rule takes an odd number of points (3, 5, ... 15)");
  }
  if (s.has("formulation"))
    in.belytschko_tsay = s["formulation"].choice({"mitc4", "belytschko_tsay"}) == "belytschko_tsay";
  if (s.has("hourglass")) {
    const case_yaml::Node h = s["hourglass"];
    if (!in.belytschko_tsay)
      h.fail("the hourglass coefficient belongs to formulation: belytschko_tsay");
    const double v = h.number();
    if (!(v > 0 && v <= 1)) h.fail(cat("must lie in (0, 1] (got ", h.text(), ")"));
    in.hourglass = v;
    in.hourglass_given = true;
  }
  return in;
}

const ShellSectionList* section_of(const ProblemSpec& spec) {
  const auto it = spec.term_sections.find("shells");
  return it == spec.term_sections.end() ? nullptr
                                        : &dynamic_cast<const ShellSectionList&>(*it->second);
}

/// An elastic region's shells at small displacements: the constant K of fe/shell.hpp, assembled
/// once.
class LinearShellTerm final : public shell_detail::ShellTermBase {
 public:
  using ShellTermBase::ShellTermBase;
  Traits traits() const override { return {.linear = true}; }
  void add_stiffness(const TermPoint&, MatrixSum& K) const override {
    K.add_cells(cells_, [&](std::int64_t, CellType t, auto x, auto Ke) {
      stiffness(t, x.data(), Ke.data());
    });
  }
  bool linear_cell(std::int64_t c, LinearCell& out) const override {
    const auto it = std::lower_bound(cells_.begin(), cells_.end(), c);
    if (it == cells_.end() || *it != c) return false;
    const CellType t = mesh_.cell_types[c];
    const auto nd = static_cast<std::size_t>(6 * rotation_nodes_from(t));
    double x[24];
    coordinates(c, x);
    out.K.assign(nd * nd, 0.0);
    stiffness(t, x, out.K.data());
    out.lumped.assign(nd, 0.0);
    lumped(t, x, out.lumped.data());
    out.mass = layers_.elastic.density * layers_.elastic.thickness *
               areas_[static_cast<std::size_t>(it - cells_.begin())];
    return true;
  }
  void cell_resultants(std::span<const PetscScalar> u, std::size_t k,
                       double out[8]) const override {
    const std::int64_t c = cells_[k];
    double x[24], d[48];
    coordinates(c, x);
    gather(u, c, d);
    const CellType t = mesh_.cell_types[c];
    if (t == CellType::shell3)
      fe::shell3_resultants(x, layers_.elastic, d, out);
    else if (t == CellType::shell8)
      fe::shell8_resultants(x, layers_.elastic, d, out);
    else
      fe::shell4_resultants(x, layers_.elastic, d, out);
  }

 private:
  std::string kind() const override { return "linear"; }
  void stiffness(CellType t, const double* x, double* K) const {
    if (t == CellType::shell3)
      fe::shell3_stiffness(x, layers_.elastic, K);
    else if (t == CellType::shell8)
      fe::shell8_stiffness(x, layers_.elastic, K);
    else
      fe::shell4_stiffness(x, layers_.elastic, K);
  }
};

}  // namespace

namespace shell_detail {

ShellTermBase::ShellTermBase(const TermInputs& in, ShellInput input, fe::ShellLayers layers,
                             std::vector<std::int64_t> cells, bool scale_rotary_inertia)
    : comm_(in.comm),
      mesh_(in.mesh),
      input_(std::move(input)),
      layers_(layers),
      cells_(std::move(cells)),
      scaled_(scale_rotary_inertia) {
  areas_.reserve(cells_.size());
  for (const std::int64_t c : cells_) {
    double x[24];
    coordinates(c, x);
    areas_.push_back(area(mesh_.cell_types[c], x));
  }
}

void ShellTermBase::coordinates(std::int64_t c, double* x) const {
  const auto nodes = mesh_.nodes_of(c);
  for (int a = 0; a < rotation_nodes_from(mesh_.cell_types[c]); ++a)
    for (int i = 0; i < 3; ++i) x[3 * a + i] = mesh_.coords[3 * nodes[a] + i];
}

void ShellTermBase::gather(std::span<const PetscScalar> u, std::int64_t c, double* d) const {
  const auto nodes = mesh_.nodes_of(c);
  for (std::size_t a = 0; a < nodes.size(); ++a)
    for (int i = 0; i < 3; ++i) d[3 * a + i] = u[3 * nodes[a] + i];
}

void ShellTermBase::quad_coordinates(std::int64_t c, double x[12]) const {
  coordinates(c, x);
  if (mesh_.cell_types[c] == CellType::shell3)
    for (int i = 0; i < 3; ++i) x[9 + i] = x[6 + i];
}

void ShellTermBase::quad_gather(std::span<const PetscScalar> u, std::int64_t c,
                                double d[24]) const {
  if (mesh_.cell_types[c] != CellType::shell3) return gather(u, c, d);
  double t[18];
  gather(u, c, t);
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i) {
      d[3 * a + i] = t[3 * std::min(a, 2) + i];
      d[12 + 3 * a + i] = t[9 + 3 * std::min(a, 2) + i];
    }
}

namespace {
/// A degenerate quadrilateral's DOF k (of 24) as its triangle's (of 18).
int triangle_dof(int k) {
  const int rotation = k >= 12, a = (k % 12) / 3, i = k % 3;
  return 9 * rotation + 3 * std::min(a, 2) + i;
}
}  // namespace

void ShellTermBase::fold_force(std::int64_t c, const double f[24], double* out) const {
  if (mesh_.cell_types[c] != CellType::shell3) {
    std::copy_n(f, 24, out);
    return;
  }
  std::fill_n(out, 18, 0.0);
  for (int k = 0; k < 24; ++k) out[triangle_dof(k)] += f[k];
}

void ShellTermBase::fold_matrix(std::int64_t c, const double K[576], double* out) const {
  if (mesh_.cell_types[c] != CellType::shell3) {
    std::copy_n(K, 576, out);
    return;
  }
  std::fill_n(out, 324, 0.0);
  for (int k = 0; k < 24; ++k)
    for (int l = 0; l < 24; ++l) out[18 * triangle_dof(k) + triangle_dof(l)] += K[24 * k + l];
}

double ShellTermBase::area(CellType t, const double* x) {
  return t == CellType::shell3   ? fe::shell3_frame(x).area
         : t == CellType::shell8 ? fe::shell8_area(x)
                                 : fe::shell4_frame(x).area;
}

/// For explicit runs the rotary inertia is raised to rho t A / n max(t^2 / 12, A / 8) per
/// rotation, so that the rotations' frequencies (bending, transverse shear and drilling against
/// the rotary inertia, which go as 1 / t) stay below the membrane's and the stable step follows
/// the in-plane size, not the thickness: the scaling of the explicit codes (Hughes, Liu and
/// Levit 1981; Belytschko, Lin and Tsay 1984). It adds no translational mass; the rotary inertia
/// of a thin shell's bending modes is a term of order (k t)^2, here of order (k h)^2 / 8 for a
/// mode of wave number k on cells of size h: it vanishes as the mesh is refined.
void ShellTermBase::lumped(CellType type, const double* x, double* m) const {
  const int n = rotation_nodes_from(type);  // 4, 3 or 8 nodes
  if (type == CellType::shell3)
    fe::shell3_lumped_mass(x, layers_.elastic, m);
  else if (type == CellType::shell8)
    fe::shell8_lumped_mass(x, layers_.elastic, m);
  else
    fe::shell4_lumped_mass(x, layers_.elastic, m);
  if (!scaled_) return;
  const double a = area(type, x), t = layers_.elastic.thickness, o = layers_.elastic.offset;
  const double rotary = layers_.elastic.density * t * a / n * std::max(t * t / 12 + o * o, a / 8);
  for (int i = 3 * n; i < 6 * n; ++i) m[i] = std::max(m[i], rotary);
}

void ShellTermBase::add_lumped_mass(VectorSum& m) const {
  m.add_cells(cells_, [&](std::int64_t, CellType t, auto x, auto me) {
    lumped(t, x.data(), me.data());
    return true;
  });
}

void ShellTermBase::add_consistent_mass(MatrixSum& M) const {
  M.add_cells(cells_, [&](std::int64_t, CellType t, auto x, auto Me) {
    double m[48];
    lumped(t, x.data(), m);
    const int nd = 6 * rotation_nodes_from(t);
    for (int i = 0; i < nd; ++i) Me[static_cast<std::size_t>((nd + 1) * i)] = m[i];
  });
}

double ShellTermBase::mass() const {
  double a = 0;
  for (const double x : areas_) a += x;
  return layers_.elastic.density * layers_.elastic.thickness * a;
}

void ShellTermBase::add_body_force(const std::array<double, 3>& g, VectorSum& f) const {
  std::size_t k = 0;
  const double rho_t = layers_.elastic.density * layers_.elastic.thickness;
  f.add_cells(cells_, [&](std::int64_t, CellType t, auto x, auto fe_vec) {
    const int n = rotation_nodes_from(t);
    if (t == CellType::shell8) {  // consistent: rho t g int N_a dA (negative at the corners)
      ++k;
      const double q[3] = {rho_t * g[0], rho_t * g[1], rho_t * g[2]};
      fe::shell8_surface_load(x.data(), q, fe_vec.data());
      return true;
    }
    const double w = rho_t * areas_[k++] / n;
    for (int a = 0; a < n; ++a)
      for (int i = 0; i < 3; ++i) fe_vec[3 * a + i] = w * g[i];
    return true;
  });
}

std::string ShellTermBase::summary() const {
  // cells, area, triangles, curved quadrilaterals
  double sums[4] = {static_cast<double>(cells_.size()), 0, 0, 0};
  for (const double a : areas_) sums[1] += a;
  for (const std::int64_t c : cells_) {
    sums[2] += mesh_.cell_types[c] == CellType::shell3;
    sums[3] += mesh_.cell_types[c] == CellType::shell8;
  }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, sums, 4, MPI_DOUBLE, MPI_SUM, comm_));
  const fe::ShellSection& e = layers_.elastic;
  const auto quads = static_cast<long long>(sums[0] - sums[2] - sums[3]);
  const auto triangles = static_cast<long long>(sums[2]);
  const auto curved = static_cast<long long>(sums[3]);
  const bool linear = kind() == "linear";
  const std::string quad_kind =
      input_.belytschko_tsay ? cat("Belytschko-Tsay, one point, hourglass ", input_.hourglass)
                             : std::string("MITC4");
  // The corotational and plastic kernels take a triangle as a degenerate quadrilateral.
  const std::string triangle_kind =
      linear ? "Allman membrane, MITC3 bending" : cat("degenerate ", quad_kind, " quadrilaterals");
  const std::string curved_kind = "curved 8-node quadrilaterals (degenerated continuum, 2 x 2)";
  std::string types = triangles == 0 ? quad_kind
                      : quads == 0   ? cat("triangles: ", triangle_kind)
                                     : cat(quads, " ", quad_kind, ", ", triangles, " triangles (",
                                           triangle_kind, ")");
  if (curved > 0)
    types = quads + triangles == 0 ? curved_kind : cat(types, ", ", curved, " ", curved_kind);
  return cat("region '", printable(input_.region), "': ", static_cast<long long>(sums[0]),
             " shells (", types, ", ", kind(), "), area ", sums[1], ", thickness ", e.thickness,
             "; E ", e.youngs_modulus, ", nu ", e.poissons_ratio, ", density ", e.density,
             "; drilling ", e.drilling, " G t, shear factor ", e.shear_factor,
             e.offset != 0 ? cat("; the nodes ", e.offset, " above the mid-surface (offset)") : "",
             scaled_ ? "; rotary inertia scaled for the explicit step (rho t A / n max(t^2 / 12, "
                       "A / 8) per rotation)"
                     : "; rotary inertia rho t^3 / 12");
}

void ShellTermBase::resultants(std::span<const PetscScalar> u, std::span<double> out) const {
  for (std::size_t k = 0; k < cells_.size(); ++k)
    cell_resultants(u, k, &out[shell_resultant_components * static_cast<std::size_t>(cells_[k])]);
}

void ShellTermBase::surface_stresses(std::span<const PetscScalar> u, std::span<double> out) const {
  for (std::size_t k = 0; k < cells_.size(); ++k)
    cell_surface_stresses(u, k,
                          &out[shell_stress_components * static_cast<std::size_t>(cells_[k])]);
}

void ShellTermBase::cell_surface_stresses(std::span<const PetscScalar> u, std::size_t k,
                                          double out[9]) const {
  double r[8];
  cell_resultants(u, k, r);
  const double t = layers_.elastic.thickness, o = layers_.elastic.offset;
  for (int i = 0; i < 3; ++i) {  // the moments about the mid-surface: M + o N
    const double membrane = r[i] / t, bending = 6 * (r[3 + i] + o * r[i]) / (t * t);
    out[i] = membrane - bending;      // bottom
    out[3 + i] = membrane;            // middle
    out[6 + i] = membrane + bending;  // top
  }
}

void ShellTermBase::thickness(std::span<double> out) const {
  for (const std::int64_t c : cells_) out[static_cast<std::size_t>(c)] = layers_.elastic.thickness;
}

}  // namespace shell_detail

void ShellSectionList::fingerprint(Hasher& h) const {
  for (const ShellInput& s : shells) {
    h.add(s.region).add(s.thickness).add(s.drilling).add(s.shear_factor);
    if (s.offset != 0) h.add("offset").add(s.offset);
    h.add(s.integration).add(s.integration_points);
    if (s.corotational) h.add("corotational");
    if (s.belytschko_tsay) h.add("belytschko_tsay").add(s.hourglass);
  }
}

std::shared_ptr<TermSection> parse_shell_section(const case_yaml::Node& section) {
  auto s = std::make_shared<ShellSectionList>();
  structural::parse_entries(section, s->shells, parse_shell, "expected at least one shell region",
                            "has a shell section already");
  // Nodes far off the shell: legal (a deep stiffener's axis), more often a length in the wrong
  // units (an offset in mm in a model in m).
  for (const ShellInput& in : s->shells)
    if (std::abs(in.offset) > 50 * in.thickness)
      s->warnings.push_back(cat(in.where, ".offset: ", in.offset, " is ",
                                std::lround(std::abs(in.offset) / in.thickness),
                                " times the thickness ", in.thickness,
                                " (a stiffener's axis lies a few thicknesses off the plate): check "
                                "the units"));
  return s;
}

void prepare_shell_mesh_data(const TermSection& section, MeshData& mesh) {
  const auto& s = dynamic_cast<const ShellSectionList&>(section);
  add_shell_rotation_nodes(
      mesh,
      structural::entry_regions(
          s.shells, mesh, 2, "shells are the quadrilaterals and triangles of a 2D physical group"));
}

namespace {

/// The refusals of a region's shells by their kind (collective): 8-node (quad8) shells are
/// linear (small displacements), elastic or plastic, for static, implicit, modal and harmonic
/// runs; a plastic region is all quad8 or all 4-node (its 4-node shells are corotational); plastic
/// 4-node shells are corotational. Returns the region's quad8 count on all ranks.
long long check_curved(const TermInputs& in, const ShellInput& b, bool plastic,
                       const std::vector<std::int64_t>& cells) {
  long long counts[2] = {0, static_cast<long long>(cells.size())};  // quad8, all
  for (const std::int64_t c : cells) counts[0] += in.mesh.cell_types[c] == CellType::shell8;
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_LONG_LONG, MPI_SUM, in.comm));
  const long long curved = counts[0], flat = counts[1] - counts[0];
  const std::string region = cat(b.where, ": region '", excerpt(b.region), "' has ", curved,
                                 " 8-node (quad8) shells, which ");
  INERTIA_CHECK(curved == 0 || !b.belytschko_tsay, InputError, region,
                "are degenerated-continuum shells; formulation: belytschko_tsay takes 4-node "
                "quadrilaterals and triangles (gmsh -order 1)");
  INERTIA_CHECK(curved == 0 || !in.spec.explicit_scheme, InputError, region,
                "are for static, implicit, modal and harmonic runs; explicit runs take 4-node "
                "quadrilaterals and triangles (gmsh -order 1)");
  INERTIA_CHECK(curved == 0 || !b.corotational, InputError, region,
                "are linear (small displacements and rotations), elastic or plastic; kinematics: "
                "corotational takes 4-node quadrilaterals and triangles (gmsh -order 1)");
  INERTIA_CHECK(curved == 0 || flat == 0 || !plastic, InputError, region, "are linear, and ", flat,
                " 4-node ones, which are corotational when plastic: give the plastic quad8 and "
                "4-node shells separate regions");
  INERTIA_CHECK(curved > 0 || !(plastic && b.kinematics_given && !b.corotational), InputError,
                b.where, ".kinematics: the plastic 4-node shells of region '", excerpt(b.region),
                "' are corotational (large rotations, small strains); leave kinematics out or "
                "give corotational (plastic 8-node shells, gmsh -order 2, are linear)");
  return curved;
}

}  // namespace

void build_shell_terms(const TermInputs& in, std::vector<std::unique_ptr<ForceTerm>>& out) {
  const ShellSectionList* s = section_of(in.spec);
  if (!s) return;
  std::exception_ptr error;
  const bool scale = in.spec.explicit_scheme;
  for (const ShellInput& b : s->shells) {
    const int region = structural::region_index(in.mesh.regions, b.region);
    const auto [material, law] =
        structural::region_material(in.spec, region, b.where, b.region, "shells");
    INERTIA_CHECK(!b.belytschko_tsay || in.spec.explicit_scheme, InputError, b.where,
                  ".formulation: the belytschko_tsay shells of region '", excerpt(b.region),
                  "' are for explicit runs (central_difference): their one-point force has no "
                  "tangent; give formulation: mitc4 for static, implicit, modal and harmonic runs");
    INERTIA_CHECK(!(b.belytschko_tsay && b.kinematics_given && !b.corotational), InputError,
                  b.where, ".kinematics: the belytschko_tsay shells of region '", excerpt(b.region),
                  "' are corotational (large rotations, small strains); leave kinematics out or "
                  "give corotational");
    const auto& e = material->material.elastic();
    fe::ShellLayers layers;
    layers.elastic = {.thickness = b.thickness,
                      .youngs_modulus = e.youngs_modulus,
                      .poissons_ratio = e.poissons_ratio,
                      .density = material->material.density,
                      .shear_factor = b.shear_factor,
                      .drilling = b.drilling,
                      .offset = b.offset};
    if (law) {
      layers.plastic = true;
      layers.j2 = *law;
      layers.j2.lame = fe::lame_from_young_poisson(e.youngs_modulus, e.poissons_ratio);
      layers.rule = b.integration == "simpson"   ? fe::ShellLayers::Rule::simpson
                    : b.integration == "lobatto" ? fe::ShellLayers::Rule::lobatto
                                                 : fe::ShellLayers::Rule::legendre;
      layers.points = b.integration_points;
      layers.rate_history = true;  // a rate factor's step from each point's time
      try {
        fe::check_shell_layers(layers);
      } catch (const InputError& err) {
        throw InputError(cat(b.where, ": ", err.what()));
      }
    }
    std::vector<std::int64_t> cells;
    for (std::int64_t c = 0; c < in.mesh.num_cells(); ++c) {
      const CellType t = in.mesh.cell_types[c];
      if (rotation_nodes_from(t) == 0 || t == CellType::beam2 ||
          in.mesh.cell_regions[c] != region || !in.mesh.cell_is_element[c])
        continue;
      double x[Assembler::max_cell_dofs];
      in.assembler.cell_coordinates(c, x);
      try {
        shell_detail::ShellTermBase::area(t, x);  // the frame, or invalid_argument
        cells.push_back(c);
      } catch (const std::invalid_argument& err) {
        if (!error)
          error = std::make_exception_ptr(
              InputError(cat(b.where, ": shell element ", in.mesh.cell_tags[c], " of region '",
                             excerpt(b.region), "': ", err.what())));
      }
    }
    const long long curved = check_curved(in, b, law != nullptr, cells);
    if (b.belytschko_tsay)
      out.push_back(shell_detail::make_bt_shell_term(in, b, layers, std::move(cells), scale));
    else if (law && curved > 0)
      out.push_back(shell_detail::make_shell8_plastic_term(in, b, layers, std::move(cells)));
    else if (law || b.corotational)
      out.push_back(
          shell_detail::make_nonlinear_shell_term(in, b, layers, std::move(cells), scale));
    else
      out.push_back(std::make_unique<LinearShellTerm>(in, b, layers, std::move(cells), scale));
  }
  rethrow_collectively(in.comm, error);
}

}  // namespace inertia
