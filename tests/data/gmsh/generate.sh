#!/bin/sh
# Regenerates the test meshes of this folder with the Debian gmsh (4.8) package.
set -e
cd "$(dirname "$0")"
gmsh box.geo -3 -format msh41 -o box_41.msh
gmsh box.geo -3 -format msh41 -bin -o box_41_bin.msh
gmsh box.geo -3 -format msh22 -o box_22.msh
gmsh box.geo -3 -format msh22 -bin -o box_22_bin.msh
# nodes with parametric coordinates ($Nodes blocks with the parametric flag set)
gmsh box.geo -3 -format msh41 -setnumber Mesh.SaveParametric 1 -o box_41_param.msh
gmsh box.geo -3 -format msh41 -bin -setnumber Mesh.SaveParametric 1 -o box_41_param_bin.msh
# elements outside the physical groups saved too (the reader drops them)
gmsh box.geo -3 -format msh41 -setnumber Mesh.SaveAll 1 -o box_41_all.msh
gmsh box_tet10.geo -3 -format msh41 -o box_tet10_41.msh
gmsh box_tet10.geo -3 -format msh22 -bin -o box_tet10_22_bin.msh
gmsh two_boxes.geo -3 -format msh41 -setnumber Mesh.Renumber 0 -o two_boxes_41.msh
gmsh two_boxes.geo -3 -format msh41 -bin -setnumber Mesh.Renumber 0 -o two_boxes_41_bin.msh
gmsh plain.geo -3 -format msh22 -o plain_22.msh
