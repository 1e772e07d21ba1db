// Loads: gravity (the weight of every term with mass), uniform tractions and pressures on the
// face cells of a region, a total force split evenly over a region's nodes and a total moment
// over its beam nodes' rotation nodes; each a reference
// vector F that the system scales by the load's amplitude, f_ext(t) = a(t) F.
#include "inertia/core/error.hpp"
#include "inertia/core/text.hpp"
#include "inertia/fe/beam.hpp"
#include "inertia/fe/element.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/beams.hpp"
#include "inertia/system/force_term.hpp"

namespace inertia {

namespace {

class LoadTerm final : public ForceTerm {
 public:
  LoadTerm(const LocalMesh& mesh, const Load& load, double rotation_nodes)
      : mesh_(mesh), load_(load), rotation_nodes_(rotation_nodes) {
    if (load_.kind == Load::Kind::traction || load_.kind == Load::Kind::pressure)
      for (std::int64_t c = 0; c < mesh_.num_cells(); ++c)
        if (mesh_.cell_regions[c] == load_.region && info(mesh_.cell_types[c]).dim == 2)
          faces_.push_back(c);
    if (load_.kind == Load::Kind::line_load)
      for (std::int64_t c = 0; c < mesh_.num_cells(); ++c)
        if (mesh_.cell_regions[c] == load_.region && mesh_.cell_types[c] == CellType::beam2 &&
            mesh_.cell_is_element[c])
          faces_.push_back(c);
  }

  std::string describe() const override {
    switch (load_.kind) {
      case Load::Kind::gravity:
        return "gravity";
      case Load::Kind::traction:
        return cat("traction on region '", mesh_.regions[load_.region].name, "'");
      case Load::Kind::pressure:
        return cat("pressure on region '", mesh_.regions[load_.region].name, "'");
      case Load::Kind::force:
        return cat("force on region '", mesh_.regions[load_.region].name, "'");
      case Load::Kind::moment:
        return cat("moment on region '", mesh_.regions[load_.region].name, "'");
      case Load::Kind::line_load:
        return cat("line load on region '", mesh_.regions[load_.region].name, "'");
    }
    return "load";
  }
  Traits traits() const override { return {.load = true, .amplitude = load_.amplitude}; }

  void add_load(std::span<const std::unique_ptr<ForceTerm>> terms, VectorSum& f) const override {
    switch (load_.kind) {
      case Load::Kind::gravity: {
        // Cell masses weigh rho g, nodal masses m g.
        std::vector<PetscScalar> nodal(static_cast<std::size_t>(3 * mesh_.num_owned), 0.0);
        for (const auto& t : terms) {
          t->add_body_force(load_.value, f);
          t->add_nodal_mass(nodal);
        }
        for (std::size_t i = 0; i < nodal.size(); ++i)  // a rotary inertia does not weigh
          if (!mesh_.is_rotation(static_cast<std::int32_t>(i / 3)))
            f.local()[i] += nodal[i] * load_.value[i % 3];
        break;
      }
      case Load::Kind::traction:
        f.add_cells(faces_, [&](std::int64_t, CellType t, auto x, auto fe_vec) {
          const std::size_t n = 3 * static_cast<std::size_t>(shown_nodes(t));  // a shell's face
          fe::face_traction(shown_type(t), x.first(n), load_.value.data(), fe_vec.first(n));
          return true;
        });
        break;
      case Load::Kind::pressure:
        f.add_cells(faces_, [&](std::int64_t, CellType t, auto x, auto fe_vec) {
          const std::size_t n = 3 * static_cast<std::size_t>(shown_nodes(t));  // a shell's face
          fe::face_pressure(shown_type(t), x.first(n), load_.value[0], fe_vec.first(n));
          return true;
        });
        break;
      case Load::Kind::force: {
        // The total force split evenly over the region's nodes (all ranks).
        const auto count = static_cast<double>(mesh_.region_node_counts[load_.region]);
        for (auto n : mesh_.region_owned_nodes[load_.region])
          if (!mesh_.is_rotation(n))
            for (int i = 0; i < 3; ++i) f.local()[3 * n + i] += load_.value[i] / count;
        break;
      }
      case Load::Kind::line_load: {                 // consistent nodal loads, end moments too
        std::vector<const BeamTermInfo*> released;  // beams with end releases condense theirs
        for (const auto& t : terms)
          if (const auto* b = dynamic_cast<const BeamTermInfo*>(t.get()); b && b->has_releases())
            released.push_back(b);
        f.add_cells(faces_, [&](std::int64_t c, CellType, auto x, auto fe_vec) {
          fe::beam_uniform_load(x.data(), x.data() + 3, load_.value.data(), fe_vec.data());
          for (const BeamTermInfo* b : released)
            if (b->condense_load(c, fe_vec)) break;
          return true;
        });
        break;
      }
      case Load::Kind::moment:
        // The total moment split evenly over the rotation nodes of the region (all ranks).
        for (auto n : mesh_.region_owned_nodes[load_.region])
          if (mesh_.is_rotation(n))
            for (int i = 0; i < 3; ++i) f.local()[3 * n + i] += load_.value[i] / rotation_nodes_;
        break;
    }
  }

 private:
  const LocalMesh& mesh_;
  Load load_;
  double rotation_nodes_ = 0;        ///< moment: the region's rotation nodes on all ranks
  std::vector<std::int64_t> faces_;  ///< traction, pressure: faces; line_load: beams  ///<
                                     ///< traction, pressure: the region's face cells here
};

}  // namespace

void build_load_terms(const TermInputs& in, std::vector<std::unique_ptr<ForceTerm>>& out) {
  for (const auto& load : in.spec.loads) {
    double rotation_nodes = 0;
    if (load.kind == Load::Kind::moment) {
      for (auto n : in.mesh.region_owned_nodes[load.region])
        rotation_nodes += in.mesh.is_rotation(n);
      INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &rotation_nodes, 1, MPI_DOUBLE, MPI_SUM, in.comm));
      INERTIA_CHECK(rotation_nodes > 0, InputError, "boundary_conditions: the moment on region '",
                    excerpt(in.mesh.regions[load.region].name),
                    "' has no beam node to act on (a moment needs the rotations of beams: "
                    "sections:); on a solid, apply forces");
    }
    if (load.kind == Load::Kind::line_load) {
      double beams = 0;
      for (std::int64_t c = 0; c < in.mesh.num_cells(); ++c)
        beams += in.mesh.cell_regions[c] == load.region && in.mesh.cell_types[c] == CellType::beam2;
      INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &beams, 1, MPI_DOUBLE, MPI_SUM, in.comm));
      INERTIA_CHECK(beams > 0, InputError, "boundary_conditions: the line_load on region '",
                    excerpt(in.mesh.regions[load.region].name),
                    "' has no beam to act on (a line region with a section: sections:)");
    }
    out.push_back(std::make_unique<LoadTerm>(in.mesh, load, rotation_nodes));
  }
}

}  // namespace inertia
