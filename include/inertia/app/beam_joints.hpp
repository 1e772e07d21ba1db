#pragma once
/// \file beam_joints.hpp
/// Beams meeting solids: the set-up check that warns of a joint the user almost surely meant to
/// be welded.

#include <string>
#include <vector>

#include "inertia/mesh/mesh_data.hpp"

namespace inertia {

struct CaseFile;

/// Serial, on the whole mesh once its beam cells have their rotation nodes. A beam node that is
/// also a node of solid cells gets no rotational stiffness from them: the joint transmits forces
/// only (a hinge). Returns one warning line when such nodes exist and neither a coupling's
/// reference node nor a condition holding all three rotations is there (none otherwise).
std::vector<std::string> beam_joint_warnings(const CaseFile& c, const MeshData& mesh,
                                             const std::vector<char>& is_element);

}  // namespace inertia
