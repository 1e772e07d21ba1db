#include "inertia/app/model_report.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <numbers>
#include <sstream>

#include "inertia/app/case_file.hpp"
#include "inertia/app/conditions.hpp"
#include "inertia/app/histories.hpp"
#include "inertia/app/model.hpp"
#include "inertia/app/run_plan.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/partition/connected_parts.hpp"
#include "inertia/system/beams.hpp"
#include "inertia/system/contact.hpp"
#include "inertia/system/couplings.hpp"
#include "inertia/system/force_term.hpp"
#include "inertia/system/mechanical_system.hpp"
#include "inertia/system/shells.hpp"

namespace inertia {

namespace {

/// The model's summary in the log, part by part (describe_model()).
class ModelReport : AnalysisPart {
 public:
  ModelReport(const AnalysisContext& context, const Model& model)
      : AnalysisPart(context), model_(model) {}

  /// Logs the case, the mesh, its regions, the materials and the partition; locates the probes.
  ModelSummary describe() {
    const int nranks = size_of(comm_);
    const LocalMesh& lm = system().mesh();
    log_ << "mesh      "
         << (c().mesh_file ? printable(c().mesh_file->lexically_normal().string())
                           : std::string("box generator"))
         << "\n";
    if (rank_of(comm_) == 0) log_ << "          " << model_.mesh_summary << "\n";
    for (const auto& w : model_.mesh_warnings) log_ << "warning   " << w << "\n";
    log_ << "regions  ";
    for (std::size_t r = 0; r < lm.regions.size(); ++r)
      log_ << " " << printable(lm.regions[r].name) << " (" << lm.regions[r].dim << "D, tag "
           << lm.regions[r].tag << ", " << lm.region_node_counts[r] << " nodes)";
    log_ << "\n";
    for (const auto& m : c().materials)
      log_ << "material  " << printable(m.region) << ": " << m.model << ", density "
           << m.material.density << ", E " << m.material.elastic().youngs_modulus << ", nu "
           << m.material.elastic().poissons_ratio
           << (m.material.technology.formulation == fe::Formulation::bbar   ? ", hex8 B-bar"
               : m.material.technology.formulation == fe::Formulation::fbar ? ", hex8 F-bar"
               : m.material.technology.formulation == fe::Formulation::reduced
                   ? cat(", hex8 reduced integration, hourglass ", m.material.technology.hourglass)
                   : std::string())
           << "\n";
    for (const auto& w : c().warnings) log_ << "warning   " << w << "\n";
    log_ << "dofs      " << system().num_global_dofs() << " (" << system().num_constrained_dofs()
         << " constrained), total mass " << system().total_mass() << "\n";
    log_constraint_overlaps();
    log_connected_parts();
    log_locking();
    for (const auto& t : system().terms()) {  // collective
      if (const auto* beams = dynamic_cast<const BeamTermInfo*>(t.get()))
        log_ << "beams     " << beams->summary() << "\n";
      if (const auto* shells = dynamic_cast<const ShellTermInfo*>(t.get()))
        log_ << "shells    " << shells->summary() << "\n";
    }
    for (const auto& t : system().terms())  // collective
      if (const auto* contact = dynamic_cast<const ContactTerm*>(t.get())) {
        log_ << "contact   " << contact->summary() << "\n";
        for (const auto& w : contact->start_warnings()) log_ << "warning   " << w << "\n";
      }
    {  // the characteristic size, to check the units against the mass and the frequency
      double box[6] = {INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY};  // -max too
      for (std::size_t n = 0; n < lm.coords.size() / 3; ++n)
        for (int i = 0; i < 3; ++i) {
          box[i] = std::min(box[i], lm.coords[3 * n + i]);
          box[3 + i] = std::min(box[3 + i], -lm.coords[3 * n + i]);
        }
      INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, box, 6, MPI_DOUBLE, MPI_MIN, comm_));
      log_ << "size      bounding box [" << box[0] << ", " << -box[3] << "] x [" << box[1] << ", "
           << -box[4] << "] x [" << box[2] << ", " << -box[5] << "]\n";
      model_size_ = std::hypot(-box[3] - box[0], -box[4] - box[1], -box[5] - box[2]);
    }
    const PartitionSummary& p = model_.partition;
    log_ << "partition " << p.method << ": edge cut " << p.quality.edge_cut << ", imbalance "
         << std::setprecision(4) << p.quality.imbalance << std::setprecision(6);
    if (p.dropped_cells) log_ << ", " << p.dropped_cells << " cells without element nodes ignored";
    log_ << "\n          rank  elements     nodes    ghosts      dofs\n";
    for (int r = 0; r < nranks; ++r)
      log_ << std::setw(16) << r << std::setw(10) << p.elements_per_rank[r] << std::setw(10)
           << p.owned_nodes_per_rank[r] << std::setw(10) << p.ghost_nodes_per_rank[r]
           << std::setw(10) << 3 * p.owned_nodes_per_rank[r] << "\n";
    probe_sites_ = locate_probes(system(), c().probes, c().path.string());
    for (const auto& line : probe_sites_.descriptions) log_ << "  " << line << "\n";
    log_ground_motion();
    log_ << std::flush;  // the summary is on screen (in the batch job's log) during the set-up
    return {model_size_, std::move(probe_sites_)};
  }

  /// Base excitation by acceleration records: per component, whether Rayleigh's mass term damps
  /// the velocity relative to the ground (uniform excitation) or the absolute one (supports that
  /// follow different motions).
  void log_ground_motion() {
    using G = MechanicalSystem::GroundMotion;
    std::string uniform, multi, displaced;
    for (int d = 0; d < 3; ++d) {
      const G g = system().ground_motion()[d];
      if (g == G::none) continue;
      std::string& list = g == G::uniform ? uniform : g == G::displaced ? displaced : multi;
      if (!list.empty()) list += ", ";
      list += "xyz"[d];
    }
    const bool mass_damped = c().rayleigh.mass != 0 || !c().rayleigh_targets.empty();
    if (!displaced.empty() && mass_damped)
      log_ << "ground    supports driven by prescribed displacements in " << displaced
           << ": Rayleigh mass damping acts on the absolute velocity (also on a body riding with "
              "them); give a base excitation as type: acceleration to damp relative to the "
              "ground\n";
    if (!uniform.empty())
      log_ << "ground    uniform base excitation in " << uniform
           << ": the supports follow one acceleration record; Rayleigh mass damping acts on the "
              "velocity relative to the ground (absolute u, v and reactions in the output)\n";
    if (!multi.empty())
      log_ << (mass_damped ? "warning   " : "ground    ") << "multi-support excitation in " << multi
           << ": the supports follow different motions (other records, or fixed supports beside "
              "accelerated ones), so Rayleigh mass damping acts on the absolute velocity there\n";
  }

  /// DOFs named by two constraint conditions: the later one in the case file holds them (its
  /// motion, its reaction). A warning per pair whose motions differ there; pairs that agree
  /// (two fixed faces sharing an edge, the usual way to hold a corner) get one line together:
  /// nothing is ambiguous about them but the region their reaction counts in.
  void log_constraint_overlaps() {
    // The case file's entry of each of the system's conditions (ProblemSpec::dirichlet: the
    // fixed, displacement and acceleration ones, in order).
    std::vector<const CaseBoundaryCondition*> entry;
    for (const auto& bc : c().boundary_conditions)
      if (bc.type->prescribes_motion) entry.push_back(&bc);
    const auto name = [&](int condition) {
      const CaseBoundaryCondition& bc = *entry[condition];
      return cat(bc.origin.key, " (", bc.type->name, ", region ", bc.region, ", line ",
                 bc.origin.line, ")");
    };
    std::string alike;  // "boundary_conditions[0] and [2] (regions xmin, ymin), [0] and [3] ..."
    std::int64_t alike_dofs = 0;
    for (const auto& o : system().constraint_overlaps()) {
      if (o.differing == 0) {
        const std::string& a = entry[o.earlier]->origin.key;
        const std::string& b = entry[o.later]->origin.key;
        alike += cat(alike.empty() ? a : ", " + a.substr(a.find('[')), " and ",
                     b.substr(b.find('[')), alike.empty() ? " (regions " : " (",
                     entry[o.earlier]->region, ", ", entry[o.later]->region, ")");
        alike_dofs += o.dofs;
        continue;
      }
      log_ << "warning   " << name(o.earlier) << " and " << name(o.later) << " both constrain "
           << o.dofs << (o.dofs == 1 ? " DOF" : " DOFs")
           << (o.differing < o.dofs ? cat(" (", o.differing, " of them to different motions)")
                                    : std::string())
           << ": the later, " << entry[o.later]->origin.key
           << ", applies there (its motion, and its reaction in reactions.csv)\n";
    }
    if (alike_dofs > 0)
      log_ << "support   " << alike_dofs << (alike_dofs == 1 ? " DOF" : " DOFs")
           << " held alike by two conditions, the later one applying (its reaction counts them): "
           << alike << "\n";
  }

  /// Near-incompressible materials on the fully integrated elements, which lock: a warning per
  /// such material naming its linear elements (hex8, tet4), whose answers come out far too
  /// stiff; tet10 stays within a few per cent.
  void log_locking() {
    const LocalMesh& lm = system().mesh();
    for (const CaseMaterial& m : c().materials) {
      if (!(m.material.elastic().poissons_ratio > 0.49)) continue;
      const bool hex_ok = m.material.technology.formulation != fe::Formulation::full;
      int region = -1;
      for (std::size_t r = 0; r < lm.regions.size(); ++r)
        if (lm.regions[r].name == m.region) region = static_cast<int>(r);
      int kinds[2] = {0, 0};  // hex8, tet4 cells of the region on this rank
      for (std::int64_t e = 0; e < lm.num_cells(); ++e)
        if (lm.cell_regions[e] == region) {
          if (lm.cell_types[e] == CellType::hex8 && !hex_ok) kinds[0] = 1;
          if (lm.cell_types[e] == CellType::tet4) kinds[1] = 1;
        }
      INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, kinds, 2, MPI_INT, MPI_MAX, comm_));
      if (!kinds[0] && !kinds[1]) continue;
      const std::string cells = kinds[0] && kinds[1] ? "hex8 and tet4" : kinds[0] ? "hex8" : "tet4";
      log_ << "warning   " << printable(c().path.string()) << ":" << m.origin.line
           << ": materials: poissons_ratio " << m.material.elastic().poissons_ratio << " on "
           << cells << " cells of region " << printable(m.region)
           << ", fully integrated, which lock volumetrically as nu -> 0.5: displacements come out "
              "far too small (a hex8 cantilever's tip deflection at nu 0.49: 0.71, at 0.4999: "
              "0.22 of nu 0.3's; tet10 0.97 and 0.95); use formulation: bbar on hex8, or tet10 "
              "cells (examples/guide/elements.md)\n";
    }
  }

  /// The connected parts of the mesh (nodes joined by elements, springs and point masses). With
  /// more than one: the count, and each part without any constrained DOF, its regions and nodes.
  /// A warning where such a part is a mistake (unfused geometry) or makes the run singular: a
  /// static run, or a dynamic one whose other parts are held; information where every part is
  /// free (a dynamic run of free bodies, a projectile). One free body alone is only mentioned in
  /// a static run, where it is singular.
  void log_connected_parts() {
    const LocalMesh& lm = system().mesh();
    std::vector<char> held(static_cast<std::size_t>(lm.num_owned), 0);
    const PetscInt first = 3 * static_cast<PetscInt>(lm.node_begin);
    for (const PetscInt dof : system().constrained_dofs()) held[(dof - first) / 3] = 1;
    // A coupling joins its nodes' parts (the mesh does not): its nodes count as held, so a plate
    // welded to a held block by a coupling is not reported free (two free parts coupled only to
    // each other are then not reported either).
    if (const auto it = c().term_sections.find("couplings"); it != c().term_sections.end())
      for (const CouplingInput& k : dynamic_cast<const CouplingSection&>(*it->second).couplings)
        for (const std::string& name : {k.node, k.edge, k.surface})
          for (std::size_t r = 0; r < lm.regions.size(); ++r)
            if (!name.empty() && lm.regions[r].name == name)
              for (const std::int32_t n : lm.region_owned_nodes[r]) held[n] = 1;
    const ConnectedParts parts = connected_parts(comm_, lm, held);
    const bool static_run = c().has_time && c().scheme.kind() == SchemeKind::static_solve;
    const bool supported = parts.free_count < parts.count;
    if (parts.count > 1)
      log_ << "mesh      " << parts.count << " disconnected parts (no node shared between them), "
           << parts.free_count << " without any constrained DOF\n";
    if (parts.free_count == 0 || (parts.count == 1 && !static_run)) return;
    const bool warn = static_run || supported;
    for (const MeshPart& p : parts.free_parts) {
      std::string regions;
      for (int r : p.regions)
        regions += cat(regions.empty() ? "" : ", ", printable(lm.regions[r].name));
      const std::string part = cat(parts.count > 1 ? "part" : "the mesh", " of ", p.nodes,
                                   p.nodes == 1 ? " node" : " nodes", " (regions ", regions, ")");
      const char* warning = parts.count > 1 ? "warning   mesh " : "warning   ";
      if (static_run)
        log_ << warning << part
             << " has no constrained DOF: free to move as a rigid body, its static stiffness is "
                "singular; constrain it (or fuse it with a held part)\n";
      else if (warn && c().term_sections.count("contact"))
        log_ << "mesh      " << part
             << " has no constrained DOF: held only through contact (contact:), if at all\n";
      else if (warn)
        log_ << warning << part
             << " has no constrained DOF while other parts are held: it moves as a rigid body "
                "(rigid-body modes at 0 Hz); if it should be attached, fuse the geometry so the "
                "parts share nodes (Gmsh: Coherence or BooleanFragments)\n";
      else
        log_ << "mesh      " << part
             << " is free: no constrained DOF, it moves as a rigid body (a projectile?)\n";
    }
    if (parts.free_count > static_cast<std::int64_t>(parts.free_parts.size()))
      log_ << (warn ? "warning   " : "mesh      ")
           << parts.free_count - static_cast<std::int64_t>(parts.free_parts.size())
           << " more parts without any constrained DOF\n";
  }

 private:
  const Model& model_;
  double model_size_ = 1;
  ProbeSites probe_sites_;
};

}  // namespace

ModelSummary describe_model(const AnalysisContext& context, const Model& model) {
  return ModelReport(context, model).describe();
}

}  // namespace inertia
