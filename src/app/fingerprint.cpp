#include "inertia/app/fingerprint.hpp"

#include "inertia/app/conditions.hpp"
#include "inertia/core/hash.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/force_term.hpp"

namespace inertia {

namespace {

void add_amplitude(Hasher& h, const CaseFile& c, const std::string& name) {
  h.add(name);
  if (name.empty()) return;
  const CaseAmplitude& a = c.amplitudes.at(name);
  h.add(static_cast<int>(a.type)).add(a.frequency).add(a.phase).add(a.continuity);
  h.add(static_cast<std::uint64_t>(a.points.size()));
  for (const auto& [t, value] : a.points) h.add(t).add(value);
}

}  // namespace

std::vector<FingerprintPart> model_fingerprint(MPI_Comm comm, const CaseFile& c,
                                               const LocalMesh& mesh) {
  // Nodes and cells: order-independent sums over the ranks (each node counted by its owner,
  // each cell held by one rank).
  std::uint64_t sums[2] = {0, 0};
  for (std::int32_t i = 0; i < mesh.num_owned; ++i) {
    const double xyz[3] = {mesh.coords[3 * i], mesh.coords[3 * i + 1], mesh.coords[3 * i + 2]};
    Hasher h;
    h.add(mesh.node_tags[i]).add(xyz);
    sums[0] = combine_unordered(sums[0], h.digest());
  }
  for (std::int64_t k = 0; k < mesh.num_cells(); ++k) {
    Hasher h;
    h.add(static_cast<int>(mesh.cell_types[k]));
    const int r = mesh.cell_regions[k];
    h.add(r >= 0 ? mesh.regions[r].tag : -1);
    for (const std::int64_t n : mesh.nodes_of(k)) h.add(mesh.node_tags[n]);
    sums[1] = combine_unordered(sums[1], h.digest());
  }
  std::uint64_t global[2] = {0, 0};
  INERTIA_MPI(MPI_Allreduce(sums, global, 2, MPI_UINT64_T, MPI_SUM, comm));
  Hasher elements;
  elements.add(global[1]);
  for (std::size_t r = 0; r < mesh.regions.size(); ++r) {
    elements.add(mesh.regions[r].name).add(mesh.regions[r].dim).add(mesh.regions[r].tag);
    elements.add(r < mesh.region_node_counts.size() ? mesh.region_node_counts[r] : -1);
  }

  Hasher materials;
  for (const auto& m : c.materials) {
    materials.add(m.region).add(m.material.law().name).add(m.material.density);
    m.material.model->fingerprint(materials);  // E, nu and the model's own parameters
    // Full integration adds nothing: elastic models keep the fingerprint they had.
    if (m.material.technology.formulation != fe::Formulation::full)
      materials.add(fe::name(m.material.technology.formulation))
          .add(m.material.technology.hourglass);
    if (const auto& f = m.material.failure)  // erosion (without: the fingerprint it had)
      materials.add("failure")
          .add(static_cast<int>(f->kind))
          .add(f->limit)
          .add(f->d1)
          .add(f->d2)
          .add(f->d3)
          .add(f->d4)
          .add(f->reference_rate);
  }
  Hasher springs;
  for (const auto& s : c.springs)
    springs.add(s.region)
        .add(s.edges_of_surface)
        .add(s.properties.stiffness)
        .add(s.properties.damping)
        .add(s.properties.rest_length);
  Hasher point_masses;
  for (const auto& p : c.point_masses) {
    point_masses.add(p.region).add(p.mass);
    if (p.rotary_inertia > 0) point_masses.add(p.rotary_inertia);  // beams' (older cases: none)
  }
  // One part per kind of force term with a section of its own, from its parsed values.
  std::vector<FingerprintPart> sections;
  for (const auto& e : force_term_entries()) {
    if (!e.parse) continue;
    Hasher h;
    const std::string name(e.name);
    const auto it = c.term_sections.find(name);
    h.add(it != c.term_sections.end());
    if (it != c.term_sections.end()) it->second->fingerprint(h);
    sections.push_back({"section." + name, cat("the ", name, " section"), h.digest()});
  }

  Hasher mass;
  mass.add(static_cast<int>(c.mass));

  Hasher damping;
  if (c.rayleigh_modes.empty()) {
    damping.add(c.rayleigh.mass).add(c.rayleigh.stiffness);
  } else {
    for (const int mode : c.rayleigh_modes) damping.add(mode);
    for (const auto& target : c.rayleigh_targets) damping.add(target.first);
  }
  damping.add(c.velocity_damping);

  Hasher conditions;
  for (const auto& bc : c.boundary_conditions) {
    conditions.add(condition_type_index(*bc.type)).add(bc.region).add(bc.components).add(bc.value);
    add_amplitude(conditions, c, bc.amplitude);
  }
  conditions.add("gravity").add(c.gravity.has_value());
  if (c.gravity) {
    conditions.add(*c.gravity);
    add_amplitude(conditions, c, c.gravity_amplitude);
  }

  Hasher integrator;
  integrator.add(c.scheme.name()).add(c.scheme.options_text());

  std::vector<FingerprintPart> parts{
      {"nodes", "the node coordinates", global[0]},
      {"elements", "the elements (types, connectivity or regions)", elements.digest()},
      {"materials", "the materials", materials.digest()},
      {"springs", "the springs", springs.digest()},
      {"point_masses", "the point masses", point_masses.digest()},
      {"mass", "the mass treatment (lumped or consistent)", mass.digest()},
      {"damping", "the damping (Rayleigh coefficients or velocity damping)", damping.digest()},
      {"conditions", "the boundary conditions, loads or their amplitudes", conditions.digest()},
      {"integrator", "the integrator or its options", integrator.digest()}};
  parts.insert(parts.end(), sections.begin(), sections.end());
  return parts;
}

}  // namespace inertia
