# Sourced by tests/scripts/shell_obstacle.sh and shell_quad8.sh: the case files of MacNeal and
# Harder's cylinder problems on a mesh of meshes/shell_cylinder_panel.geo ($meshes: the meshes
# folder). Usage: roof MESH, cylinder MESH (MESH: the file's name in $meshes, without .msh).

# Scordelis-Lo roof: R 25, L 50, t 0.25, E 4.32e8, nu 0, self-weight 90 per area (density 360
# under g = 1), diaphragms at the ends (u_y = u_z = 0), the quarter with symmetry at mid-span and
# at the crown; a probe at the free edge's mid-point.
roof() {
  cat <<YAML
mesh: {file: $meshes/$1.msh}
materials:
  - {region: panel, density: 360, youngs_modulus: 4.32e8, poissons_ratio: 0}
shells:
  - {region: panel, thickness: 0.25}
boundary_conditions:
  - {region: end0, type: fixed, components: [y, z]}          # the diaphragm
  - {region: end1, type: fixed, components: [x, ry, rz]}     # mid-span: symmetry
  - {region: edge0, type: fixed, components: [y, rx, rz]}    # the crown: symmetry
gravity: {value: [0, 0, -1]}
time: {integrator: static, dt: 1, steps: 1}
output:
  directory: out
  every: 0
  probes: [{name: free, point: [25, 16.06969024216348, 19.15111107797445]}]
YAML
}

# Pinched cylinder with rigid diaphragms: R 300, L 600, t 3, E 3e6, nu 0.3, two opposite loads
# P = 1 at mid-length; the octant with a quarter load; a probe under the load.
cylinder() {
  cat <<YAML
mesh: {file: $meshes/$1.msh}
materials:
  - {region: panel, density: 1, youngs_modulus: 3.0e6, poissons_ratio: 0.3}
shells:
  - {region: panel, thickness: 3}
boundary_conditions:
  - {region: end0, type: fixed, components: [x, ry, rz]}     # mid-length: symmetry
  - {region: end1, type: fixed, components: [y, z]}          # the diaphragm
  - {region: edge0, type: fixed, components: [y, rx, rz]}    # the plane y = 0
  - {region: edge1, type: fixed, components: [z, rx, ry]}    # the plane z = 0
  - {region: corner00, type: force, value: [0, 0, -0.25]}    # a quarter of P = 1
time: {integrator: static, dt: 1, steps: 1}
output:
  directory: out
  every: 0
  probes: [{name: load, point: [0, 0, 300]}]
YAML
}
