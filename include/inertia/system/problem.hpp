#pragma once
/// \file problem.hpp
/// The typed, validated description of a mechanical problem on a distributed mesh: what the
/// case file says about materials, loads, constraints and damping, with region names resolved to
/// region indices and amplitude names to indices. Built by the app, consumed by MechanicalSystem.

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "inertia/assembly/assembler.hpp"
#include "inertia/core/hash.hpp"
#include "inertia/system/amplitude.hpp"

namespace inertia {

enum class MassTreatment { consistent, lumped };

/// The parsed case-file section of a force-term kind with a section of its own
/// (ForceTermEntry::parse); the kind's build function reads its own type back.
struct TermSection {
  virtual ~TermSection() = default;
  /// "<file>:<line>: <section>", for messages about the section found later (a region the mesh
  /// lacks).
  std::string where;
  /// The section as YAML text: a restart refuses a checkpoint written with another.
  std::string source;
  /// Adds what the section means to a restart's model fingerprint (app/fingerprint.hpp): its
  /// parsed values, so that a reformatted section (0.30 for 0.3, another key order) is the same
  /// model. The YAML text unless the kind says better.
  virtual void fingerprint(Hasher& h) const { h.add(source); }
  /// Values that are legal but almost surely not meant (friction above 1): one line each,
  /// "<file>:<line>: <key>: ...", logged as warnings.
  std::vector<std::string> warnings;
};
using TermSections = std::map<std::string, std::shared_ptr<const TermSection>, std::less<>>;

struct MaterialAssignment {
  int region = -1;
  material::SolidMaterial material;
};

/// Fixed (value 0) or prescribed components on the nodes of a region: u_i(t) = value_i a(t).
struct DirichletCondition {
  int region = -1;
  std::array<bool, 3> components{true, true, true};
  std::array<double, 3> value{0, 0, 0};
  int amplitude = 0;  ///< index into ProblemSpec::amplitudes
  /// A prescribed acceleration (case type `acceleration`: `amplitude` is its double integral):
  /// the record's identity, so that supports following the same record in a component make a
  /// uniform base excitation there (MechanicalSystem: Rayleigh mass damping relative to the
  /// ground). -1 for displacement conditions; otherwise an index equal for equal records.
  int record = -1;
  /// The rotations rx, ry, rz of the region's rotation nodes (beam nodes), prescribed as
  /// rotation_value x the amplitude.
  std::array<bool, 3> rotations{false, false, false};
  std::array<double, 3> rotation_value{0, 0, 0};
};

struct Load {
  /// force: a total force shared by the region's nodes; moment: a total moment shared by the
  /// rotation nodes of the region's beam nodes.
  /// line_load: a force per length on the beams of a line region.
  enum class Kind { gravity, traction, pressure, force, moment, line_load };
  Kind kind = Kind::force;
  int region = -1;                       ///< unused for gravity
  std::array<double, 3> value{0, 0, 0};  ///< acceleration, traction or total force; pressure in [0]
  int amplitude = 0;
};

/// Springs on the line2 cells of a region.
struct SpringAssignment {
  int region = -1;
  SpringProperties properties;
};

/// A mass added at every node of a region.
struct PointMass {
  int region = -1;
  double mass = 0;
  double rotary_inertia = 0;  ///< at the region's rotation nodes (beam nodes), about x, y, z
};

struct RayleighDamping {
  double mass = 0;       ///< alpha_M
  double stiffness = 0;  ///< alpha_K
  /// The damping ratio a mode of angular frequency omega gets: alpha_M / (2 omega) +
  /// alpha_K omega / 2.
  double ratio(double omega) const { return mass / (2 * omega) + stiffness * omega / 2; }
  /// The coefficients whose ratio() is zeta1 at omega1 and zeta2 at omega2 (either may come out
  /// negative: targets Rayleigh damping cannot meet).
  static RayleighDamping through(double zeta1, double omega1, double zeta2, double omega2) {
    const double d = omega2 * omega2 - omega1 * omega1;
    return {2 * omega1 * omega2 * (zeta1 * omega2 - zeta2 * omega1) / d,
            2 * (zeta2 * omega2 - zeta1 * omega1) / d};
  }
};

struct InitialVelocity {
  int region = -1;  ///< -1: every node
  std::array<double, 3> value{0, 0, 0};
  std::array<double, 3> angular{0, 0, 0};  ///< at the rotation nodes (beam nodes)
};

/// How implicit solves with a constant operator (linear models) are done: chosen from the
/// problem (automatic), a sparse direct factorisation computed once (direct), or CG with
/// algebraic multigrid (iterative). -ksp_type / -pc_type on the command line override all three.
enum class LinearSolverChoice { automatic, direct, iterative };

struct ProblemSpec {
  std::vector<MaterialAssignment> materials;
  std::vector<SpringAssignment> springs;
  std::vector<PointMass> point_masses;
  std::vector<DirichletCondition> dirichlet;
  std::vector<Load> loads;
  std::vector<Amplitude> amplitudes{Amplitude::constant()};  ///< [0] is the constant 1
  std::vector<InitialVelocity> initial_velocity;             ///< applied in order
  MassTreatment mass = MassTreatment::consistent;
  RayleighDamping rayleigh;
  bool matrix_free = false;  ///< K products from element kernels, K never assembled
  /// The scheme never solves with K (explicit): a linear K is stored as BAIJ (3x3 blocks), whose
  /// products move 30 % fewer bytes than AIJ's; implicit solves need AIJ for GAMG.
  bool explicit_scheme = false;
  /// An explicit scheme steps the model (alone, or in an analysis of a sequence): the contact
  /// penalty's default is the explicit schemes' (contact.hpp), which a stiffer one would make
  /// chatter there.
  bool explicit_steps = false;
  /// Every step is central difference's (one transient analysis): a drop weight's leap-frog
  /// (contact.walls[].mass) is that scheme's.
  bool central_difference = false;
  LinearSolverChoice linear_solver = LinearSolverChoice::automatic;
  TermSections term_sections;  ///< by section name (ForceTermEntry::parse)
  /// The case file's amplitudes by name (indices into `amplitudes`), for the term sections, and
  /// the amplitude of a condition that names none (the constant, or the static ramp).
  std::map<std::string, int, std::less<>> amplitude_index;
  int default_amplitude = 0;
};

}  // namespace inertia
