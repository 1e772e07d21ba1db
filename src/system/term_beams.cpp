// Beams (beams.hpp): the case file's `sections:`, one linear term per section region. A beam cell
// (beam2) is a Gmsh line2 cell of the region with its two nodes' rotation nodes
// (mesh/rotation_nodes.hpp); the element is fe/beam.hpp's 12-DOF Euler-Bernoulli or Timoshenko
// beam, whose DOF order [u0, u1, theta0, theta1] is the cell's node order.
#include <algorithm>
#include <cmath>

#include "beam_term.hpp"
#include "inertia/assembly/assembler.hpp"
#include "inertia/core/case_node.hpp"
#include "inertia/fe/beam.hpp"
#include "inertia/fe/beam_corotational.hpp"
#include "inertia/fe/beam_release.hpp"
#include "inertia/mesh/rotation_nodes.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/beams.hpp"
#include "structural_regions.hpp"

namespace inertia {

namespace {

/// The dimensions each shape takes, in the order its fe function takes them.
std::vector<std::string_view> shape_keys(std::string_view shape) {
  if (shape == "rectangle") return {"width", "height"};
  if (shape == "circle") return {"diameter"};
  if (shape == "tube") return {"diameter", "wall_thickness"};
  return {"height", "flange_width", "flange_thickness", "web_thickness"};
}

/// releases: [{nodes: <point group> | [groups], moments: [t, my, mz]}, ...]
std::vector<BeamRelease> parse_releases(const case_yaml::Node& list) {
  list.expect_sequence();
  if (list.size() == 0)
    list.fail("expected at least one release, e.g. {nodes: hinge, moments: [my, mz]}");
  std::vector<BeamRelease> out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const case_yaml::Node e = list.at(i);
    e.expect_map({"nodes", "moments"});
    BeamRelease r;
    r.where = cat(*e.file, ":", e.line(), ": ", e.key);
    if (!e.has("nodes"))
      e.fail("missing key 'nodes' (a point physical group, or a list of them, at beam ends)");
    if (!e.has("moments"))
      e.fail("missing key 'moments' (the released local components: t, my, mz)");
    const case_yaml::Node nodes = e["nodes"];
    if (nodes.node.IsSequence()) {
      if (nodes.size() == 0) nodes.fail("expected at least one point group");
      for (std::size_t k = 0; k < nodes.size(); ++k) r.nodes.push_back(nodes.at(k).text());
    } else {
      r.nodes.push_back(nodes.text());
    }
    const case_yaml::Node moments = e["moments"];
    moments.expect_sequence();
    if (moments.size() == 0) moments.fail("expected at least one of t, my, mz");
    for (std::size_t k = 0; k < moments.size(); ++k) {
      const std::string c = moments.at(k).choice({"t", "my", "mz"});
      r.components |= 1u << (c == "t" ? 0 : c == "my" ? 1 : 2);
    }
    out.push_back(std::move(r));
  }
  return out;
}

BeamInput parse_beam(const case_yaml::Node& b) {
  b.expect_map({"region", "shape", "area", "iy", "iz", "torsion", "shear_area_y", "shear_area_z",
                "orientation", "theory", "kinematics", "fibers", "integration_points", "releases"});
  BeamInput in;
  in.where = cat(*b.file, ":", b.line(), ": ", b.key);
  if (!b.has("region")) b.fail("missing key 'region' (the line region of the beams)");
  in.region = b["region"].text();
  const bool given = b.has("area") || b.has("iy") || b.has("iz") || b.has("torsion");
  if (b.has("shape") == given)
    b.fail(given ? "give either 'shape' or the properties (area, iy, iz, torsion), not both"
                 : "missing the section: 'shape: {type: rectangle, width: .., height: ..}' (or "
                   "circle, tube, i) or 'area', 'iy', 'iz', 'torsion'");
  if (b.has("shape")) {
    const case_yaml::Node s = b["shape"];
    s.expect_map({"type", "width", "height", "diameter", "wall_thickness", "flange_width",
                  "flange_thickness", "web_thickness"});
    if (!s.has("type")) s.fail("missing key 'type' (rectangle, circle, tube or i)");
    in.shape = s["type"].choice({"rectangle", "circle", "tube", "i"});
    const auto keys = shape_keys(in.shape);
    std::vector<std::string_view> allowed{"type"};
    allowed.insert(allowed.end(), keys.begin(), keys.end());
    s.expect_map(allowed);
    for (std::size_t k = 0; k < keys.size(); ++k) {
      const std::string key(keys[k]);
      if (!s.has(key.c_str())) s.fail(cat("a ", in.shape, " needs '", key, "'"));
      in.dimensions[k] = s[key.c_str()].positive();
    }
    if (in.shape == "tube" && !(2 * in.dimensions[1] < in.dimensions[0]))
      s["wall_thickness"].fail("must be less than half the diameter");
    if (in.shape == "i" && !(2 * in.dimensions[2] < in.dimensions[0]))
      s["flange_thickness"].fail("must be less than half the height");
    if (in.shape == "i" && !(in.dimensions[3] <= in.dimensions[1]))
      s["web_thickness"].fail("must be at most the flange width");
  } else {
    for (const char* key : {"area", "iy", "iz", "torsion"})
      if (!b.has(key)) b.fail(cat("missing key '", key, "'"));
    in.properties.area = b["area"].positive();
    in.properties.iy = b["iy"].positive();
    in.properties.iz = b["iz"].positive();
    in.properties.torsion = b["torsion"].positive();
    if (b.has("shear_area_y")) in.properties.shear_area_y = b["shear_area_y"].positive();
    if (b.has("shear_area_z")) in.properties.shear_area_z = b["shear_area_z"].positive();
  }
  if (b.has("orientation")) {
    in.orientation = b["orientation"].vec3();
    in.oriented = true;
    if (std::hypot(in.orientation[0], in.orientation[1], in.orientation[2]) == 0)
      b["orientation"].fail("must not be zero (an approximate local y axis of the section)");
  }
  if (b.has("kinematics"))
    in.corotational = b["kinematics"].choice({"linear", "corotational"}) == "corotational";
  in.shear_deformable = true;
  if (b.has("theory")) {
    in.shear_deformable = b["theory"].choice({"timoshenko", "euler_bernoulli"}) == "timoshenko";
    in.theory_given = true;
  }
  if (b.has("fibers")) in.fiber_divisions = static_cast<int>(b["fibers"].integer_in(1, 64));
  if (b.has("integration_points"))
    in.integration_points = static_cast<int>(b["integration_points"].integer_in(3, 10));
  if (b.has("releases")) in.releases = parse_releases(b["releases"]);
  if (in.shear_deformable && in.shape.empty() &&
      !(in.properties.shear_area_y > 0 && in.properties.shear_area_z > 0)) {
    if (b.has("theory"))
      b["theory"].fail("timoshenko needs shear_area_y and shear_area_z (or a shape)");
    in.shear_deformable = false;  // no shear areas: rigid in shear
  }
  return in;
}

const BeamSection* section_of(const ProblemSpec& spec) {
  const auto it = spec.term_sections.find("sections");
  return it == spec.term_sections.end() ? nullptr : &dynamic_cast<const BeamSection&>(*it->second);
}

/// An elastic region's beams: linear (the constant K of fe/beam.hpp, assembled once) or
/// corotational (fe/beam_corotational.hpp: force and tangent at u).
class ElasticBeamTerm final : public beam_detail::BeamTermBase {
 public:
  using BeamTermBase::BeamTermBase;
  Traits traits() const override { return {.linear = !input_.corotational}; }

  /// Linear: the constant K. Corotational: the tangent at `at`.
  void add_stiffness(const TermPoint& at, MatrixSum& K) const override {
    std::size_t k = 0;
    K.add_cells(cells_, [&](std::int64_t c, CellType, auto x, auto Ke) {
      if (input_.corotational) {
        double d[12], f[12];
        gather(at.u, c, d);
        fe::corotational_beam_force(x.data(), x.data() + 3, orientation(k), section_, material_,
                                    input_.shear_deformable, d, f, Ke.data(), nullptr,
                                    data_[k].released);
      } else {
        std::copy(data_[k].K.begin(), data_[k].K.end(), Ke.begin());
      }
      ++k;
    });
  }
  /// Corotational: f_int(u) = dE/du (the linear term's is in K u).
  void add_internal_force(const TermPoint& at, VectorSum& f) const override {
    std::size_t k = 0;
    f.add_cells(cells_, [&](std::int64_t c, CellType, auto x, auto fe_vec) {
      double d[12];
      gather(at.u, c, d);
      fe::corotational_beam_force(x.data(), x.data() + 3, orientation(k), section_, material_,
                                  input_.shear_deformable, d, fe_vec.data(), nullptr, nullptr,
                                  data_[k].released);
      ++k;
      return true;
    });
  }
  double energy(const TermPoint& at) const override {
    double total = 0;
    for (std::size_t k = 0; k < cells_.size(); ++k) {
      double d[12], f[12], x[6], e = 0;
      gather(at.u, cells_[k], d);
      coordinates(cells_[k], x);
      try {
        fe::corotational_beam_force(x, x + 3, orientation(k), section_, material_,
                                    input_.shear_deformable, d, f, nullptr, &e, data_[k].released);
      } catch (const SolverError&) {
        return NAN;  // no frame: an element the configuration cannot take
      }
      total += e;
    }
    return total;
  }
  void section_forces(std::span<const PetscScalar> u, std::span<double> forces) const override {
    for (std::size_t k = 0; k < cells_.size(); ++k) {
      double d[12], x[6];
      gather(u, cells_[k], d);
      coordinates(cells_[k], x);
      double* s = &forces[12 * cells_[k]];
      if (!input_.corotational) {
        fe::beam_section_forces(x, x + 3, data_[k].frame.data(), section_, material_,
                                input_.shear_deformable, d, s, data_[k].released);
        continue;
      }
      double dl[7], Rr[9];
      try {  // in the corotated axes
        fe::corotational_beam_local_state(x, x + 3, orientation(k), section_, material_,
                                          input_.shear_deformable, d, dl, Rr, s, data_[k].released);
      } catch (const SolverError&) {
        std::fill(s, s + 12, NAN);
      }
    }
  }

  bool nonlinear_cell(std::int64_t c, LinearCell& out) const override {
    return input_.corotational && cell_mass(c, out);
  }
  void cell_force(std::span<const PetscScalar> u, std::int64_t c, double f[12]) const override {
    const auto k = row(c);
    double d[12], x[6];
    gather(u, c, d);
    coordinates(c, x);
    fe::corotational_beam_force(x, x + 3, orientation(k), section_, material_,
                                input_.shear_deformable, d, f, nullptr, nullptr, data_[k].released);
  }
  bool large_rotations() const override { return input_.corotational; }
  bool linear_cell(std::int64_t c, LinearCell& out) const override {
    const auto it = std::lower_bound(cells_.begin(), cells_.end(), c);
    if (input_.corotational || it == cells_.end() || *it != c) return false;
    const beam_detail::BeamCell& d = data_[static_cast<std::size_t>(it - cells_.begin())];
    out = {d.K, d.M, d.lumped, material_.density * section_.area};
    return true;
  }

 private:
  std::string kind() const override {
    return cat(input_.shear_deformable ? "timoshenko" : "euler_bernoulli",
               input_.corotational ? ", corotational" : ", linear");
  }
};

fe::BeamSectionProperties section_properties(const BeamInput& b, double nu) {
  return b.shape.empty() ? b.properties : fe::section_properties(beam_detail::beam_shape(b), nu);
}

}  // namespace

namespace beam_detail {

std::string BeamTermBase::summary() const {
  double count = static_cast<double>(cells_.size()), length = 0, shortest = INFINITY, longest = 0;
  double released = 0;
  for (const BeamCell& c : data_) {
    released += c.released ? 1 : 0;
    length += c.length;
    shortest = std::min(shortest, c.length);
    longest = std::max(longest, c.length);
  }
  double sums[3] = {count, length, released}, extremes[2] = {shortest, -longest};
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, sums, 3, MPI_DOUBLE, MPI_SUM, comm_));
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, extremes, 2, MPI_DOUBLE, MPI_MIN, comm_));
  const auto& s = section_;
  return cat("region '", printable(input_.region), "': ", static_cast<long long>(sums[0]),
             " beams, length ", sums[1], " (", extremes[0], " to ", -extremes[1], "), ", kind(),
             input_.shape.empty() ? std::string() : cat(", ", input_.shape),
             input_.releases.empty()
                 ? std::string()
                 : cat(", ", static_cast<long long>(sums[2]), " with end releases"),
             "; A ", s.area, ", Iy ", s.iy, ", Iz ", s.iz, ", J ", s.torsion,
             input_.shear_deformable
                 ? cat(", shear areas ", s.shear_area_y, " (y) ", s.shear_area_z, " (z)")
                 : std::string(),
             "; E ", material_.youngs_modulus, ", G ", material_.shear_modulus, ", density ",
             material_.density,
             input_.oriented ? cat("; local y along (", input_.orientation[0], ", ",
                                   input_.orientation[1], ", ", input_.orientation[2], ")")
                             : std::string("; local y horizontal (default orientation)"));
}

void BeamTermBase::add_lumped_mass(VectorSum& m) const {
  std::size_t k = 0;
  m.add_cells(cells_, [&](std::int64_t, CellType, auto, auto me) {
    std::copy(data_[k].lumped.begin(), data_[k].lumped.end(), me.begin());
    ++k;
    return true;
  });
}

void BeamTermBase::add_consistent_mass(MatrixSum& M) const {
  std::size_t k = 0;
  M.add_cells(cells_, [&](std::int64_t, CellType, auto, auto Me) {
    std::copy(data_[k].M.begin(), data_[k].M.end(), Me.begin());
    ++k;
  });
}

double BeamTermBase::mass() const {
  double total = 0;
  for (const BeamCell& c : data_) total += material_.density * section_.area * c.length;
  return total;
}

void BeamTermBase::add_body_force(const std::array<double, 3>& g, VectorSum& f) const {
  const double w = material_.density * section_.area;
  const double q[3] = {w * g[0], w * g[1], w * g[2]};
  std::size_t k = 0;
  f.add_cells(cells_, [&](std::int64_t, CellType, auto x, auto fe_vec) {
    fe::beam_uniform_load(x.data(), x.data() + 3, q, fe_vec.data());
    if (const std::int32_t t = data_[k++].transform; t >= 0)
      fe::beam_condense_vector(transforms_[static_cast<std::size_t>(t)].data(), fe_vec.data());
    return true;
  });
}

bool BeamTermBase::condense_load(std::int64_t c, std::span<double> fe) const {
  const auto it = std::lower_bound(cells_.begin(), cells_.end(), c);
  if (it == cells_.end() || *it != c) return false;
  const std::int32_t t = data_[static_cast<std::size_t>(it - cells_.begin())].transform;
  if (t >= 0) fe::beam_condense_vector(transforms_[static_cast<std::size_t>(t)].data(), fe.data());
  return true;
}

fe::BeamShape beam_shape(const BeamInput& b) {
  using K = fe::BeamShape::Kind;
  const auto& d = b.dimensions;
  const K kind = b.shape == "rectangle" ? K::rectangle
                 : b.shape == "circle"  ? K::circle
                 : b.shape == "tube"    ? K::tube
                                        : K::i_section;
  return {kind, d[0], d[1], d[2], d[3]};
}

}  // namespace beam_detail

void BeamSection::fingerprint(Hasher& h) const {
  for (const BeamInput& b : beams) {
    h.add(b.region).add(b.shape).add(static_cast<int>(b.shear_deformable)).add(b.orientation);
    h.add(static_cast<int>(b.oriented));
    if (b.corotational) h.add("corotational");
    h.add(b.fiber_divisions).add(b.integration_points);
    for (double x : b.dimensions) h.add(x);
    const auto& p = b.properties;
    for (double x : {p.area, p.iy, p.iz, p.torsion, p.shear_area_y, p.shear_area_z}) h.add(x);
    for (const BeamRelease& r : b.releases) {
      h.add("release").add(static_cast<int>(r.components));
      for (const std::string& n : r.nodes) h.add(n);
    }
  }
}

std::shared_ptr<TermSection> parse_beam_section(const case_yaml::Node& section) {
  auto s = std::make_shared<BeamSection>();
  structural::parse_entries(section, s->beams, parse_beam, "expected at least one section",
                            "has a section already");
  return s;
}

void prepare_beam_mesh_data(const TermSection& section, MeshData& mesh) {
  const auto& s = dynamic_cast<const BeamSection&>(section);
  add_rotation_nodes(mesh,
                     structural::entry_regions(s.beams, mesh, 1,
                                               "beams are the line cells of a 1D physical group"));
}

namespace {

/// A region's local beam cells with their frames and matrices (K for the linear elastic beams
/// only), condensed for their end releases; `ends` (when not null) gets each cell's end rotation
/// stiffness for check_released_rotations. A cell without a frame is skipped, its InputError
/// kept in `error` (the first).
struct RegionCells {
  std::vector<std::int64_t> cells;
  std::vector<beam_detail::BeamCell> data;
  std::vector<beam_detail::ReleaseTransform> transforms;
};
RegionCells region_cells(const TermInputs& in, const BeamInput& b, int region,
                         const fe::BeamSectionProperties& p, const fe::BeamMaterial& m, bool linear,
                         std::exception_ptr& error,
                         std::vector<beam_detail::EndRotationStiffness>* ends) {
  RegionCells r;
  for (std::int64_t c = 0; c < in.mesh.num_cells(); ++c) {
    if (in.mesh.cell_types[c] != CellType::beam2 || in.mesh.cell_regions[c] != region ||
        !in.mesh.cell_is_element[c])
      continue;
    double x[12];  // the rotation nodes' too (at the same places)
    in.assembler.cell_coordinates(c, x);
    double v[3] = {b.orientation[0], b.orientation[1], b.orientation[2]};
    if (!b.oriented) fe::default_beam_orientation(x, x + 3, v);
    beam_detail::BeamCell cell{};
    if (!fe::beam_frame(x, x + 3, v, cell.frame.data())) {
      if (!error)
        error = std::make_exception_ptr(InputError(
            cat(b.where, ": beam element ", in.mesh.cell_tags[c],
                std::hypot(x[3] - x[0], x[4] - x[1], x[5] - x[2]) > 0
                    ? " lies along the orientation vector; give an orientation across the beam"
                    : " has zero length")));
      continue;
    }
    cell.length = std::hypot(x[3] - x[0], x[4] - x[1], x[5] - x[2]);
    r.cells.push_back(c);
    r.data.push_back(cell);
  }
  const std::vector<unsigned> masks = beam_detail::release_masks(in, b, r.cells);  // collective
  for (std::size_t k = 0; k < r.cells.size(); ++k) {
    beam_detail::BeamCell& cell = r.data[k];
    double x[12];
    in.assembler.cell_coordinates(r.cells[k], x);
    const double* R = cell.frame.data();
    cell.released = masks[k];
    if (linear || ends || cell.released)
      fe::beam_stiffness(x, x + 3, R, p, m, b.shear_deformable, cell.K.data());
    fe::beam_consistent_mass(x, x + 3, R, p, m, b.shear_deformable, cell.M.data());
    fe::beam_lumped_mass(x, x + 3, p, m, cell.lumped.data());
    beam_detail::EndRotationStiffness end{.cell = r.cells[k]};
    for (int a = 0; a < 2 && ends; ++a)
      end.scale[a] = cell.K[13 * (6 + 3 * a)] + cell.K[13 * (7 + 3 * a)] + cell.K[13 * (8 + 3 * a)];
    if (cell.released) {  // condensed K and M (fe/beam_release.hpp); the lumped mass stays
      double Kl[144], Tl[144], full[144];
      fe::beam_local_stiffness(cell.length, p, m, b.shear_deformable, Kl);
      fe::beam_release_transform(Kl, cell.released, Tl);
      beam_detail::ReleaseTransform& T = r.transforms.emplace_back();
      fe::beam_to_global(R, Tl, T.data());
      cell.transform = static_cast<std::int32_t>(r.transforms.size() - 1);
      std::copy(cell.K.begin(), cell.K.end(), full);
      fe::beam_condense(T.data(), full, cell.K.data());
      std::copy(cell.M.begin(), cell.M.end(), full);
      fe::beam_condense(T.data(), full, cell.M.data());
    }
    if (!ends) continue;
    for (int a = 0; a < 2; ++a)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          end.block[9 * a + 3 * i + j] = cell.K[12 * (6 + 3 * a + i) + 6 + 3 * a + j];
    ends->push_back(end);
  }
  return r;
}

}  // namespace

void build_beam_terms(const TermInputs& in, std::vector<std::unique_ptr<ForceTerm>>& out) {
  const BeamSection* s = section_of(in.spec);
  if (!s) return;
  // A rotation all beams release at a node is singular wherever K is solved with, and in a
  // consistent mass (condensed: no inertia there either); the lumped mass keeps it finite.
  const bool check =
      (!in.spec.explicit_scheme || in.spec.mass == MassTreatment::consistent) &&
      std::ranges::any_of(s->beams, [](const BeamInput& b) { return !b.releases.empty(); });
  std::vector<beam_detail::EndRotationStiffness> ends;
  std::exception_ptr error;
  for (const BeamInput& given : s->beams) {
    BeamInput b = given;
    const int region = structural::region_index(in.mesh.regions, b.region);
    const auto [material, law] =
        structural::region_material(in.spec, region, b.where, b.region, "beams");
    if (law) {  // fiber sections: Euler-Bernoulli, small rotations (fe/beam_fiber.hpp)
      INERTIA_CHECK(!b.shape.empty(), InputError, b.where, ": the plastic beams of region '",
                    excerpt(b.region),
                    "' need a shape (their fibers): give shape: {type: rectangle | circle | tube "
                    "| i, ...} instead of area, iy, iz, torsion");
      INERTIA_CHECK(!b.corotational, InputError, b.where, ": the plastic beams of region '",
                    excerpt(b.region),
                    "' are small-rotation fiber beams: kinematics: corotational is for elastic "
                    "beams (not built yet for fiber sections)");
      INERTIA_CHECK(!(b.theory_given && b.shear_deformable), InputError, b.where,
                    ".theory: the plastic beams of region '", excerpt(b.region),
                    "' are Euler-Bernoulli fiber beams; timoshenko is for elastic beams");
      INERTIA_CHECK(b.releases.empty(), InputError, b.where,
                    ".releases: the plastic beams of region '", excerpt(b.region),
                    "' are fiber beams: end releases are for elastic beams (not built for fiber "
                    "sections; a plastic hinge forms by itself where the moment reaches the "
                    "section's capacity)");
      b.shear_deformable = false;
    }
    const auto& e = material->material.elastic();
    const fe::BeamMaterial m{.youngs_modulus = e.youngs_modulus,
                             .shear_modulus = e.mu(),
                             .density = material->material.density};
    const fe::BeamSectionProperties p = section_properties(b, e.poissons_ratio);
    RegionCells r =
        region_cells(in, b, region, p, m, !law && !b.corotational, error, check ? &ends : nullptr);
    if (law)
      out.push_back(beam_detail::make_fiber_beam_term(in, b, p, m, *law, std::move(r.cells),
                                                      std::move(r.data)));
    else
      out.push_back(std::make_unique<ElasticBeamTerm>(in, b, p, m, std::move(r.cells),
                                                      std::move(r.data), std::move(r.transforms)));
  }
  rethrow_collectively(in.comm, error);
  if (check) beam_detail::check_released_rotations(in, ends, s->where);
}

}  // namespace inertia
