#!/usr/bin/env python3
"""Projects an explicit inertia run (central difference, lumped mass, assembled hex8 K) of a
large box mesh onto a cluster, from per-rank costs measured on one machine and the cluster's
figures, and prints a Markdown table per rank count: setup, step, halo and reduction time per
step, output and checkpoint per write, and the whole run. See README.md, "Projection".

Every default is a measured figure (README.md says where it comes from); override them with the
options for your machine and cluster. Nothing is run: it is arithmetic you can check.

usage: project.py [--cells 1e8] [--ranks 256,1024,...] [--steps 1e5] [--output-every 1000] ...
"""
import argparse
import math


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    a = p.add_argument
    a("--cells", type=float, default=1e8, help="hex8 cells of a cube-shaped box (1e8)")
    a("--ranks", default="128,512,2048,8192,32768,131072", help="rank counts")
    a("--steps", type=float, default=1e5, help="time steps (1e5)")
    a("--output-every", type=float, default=1000, help="steps between output frames (1000)")
    a("--checkpoint-every", type=float, default=10000, help="steps between checkpoints (10000)")
    # Measured on this machine (README.md, "Projection"):
    a("--step-bytes-per-dof", type=float, default=780,
      help="bytes one explicit step moves per DOF: the BAIJ(3) product (700 MB for 1,029,000 "
           "DOFs) times the step's 1.07-1.14 over a bare product (780)")
    a("--assembly-cells-per-second", type=float, default=4.0e5,
      help="hex8 assembly rate of one rank (4.0e5: 328,509 cells in 0.81 s)")
    a("--split-bytes-per-cell", type=float, default=64,
      help="split file bytes per cell (64: 94 MB for 1,467,133 tet4)")
    a("--frame-bytes-per-node", type=float, default=200,
      help="XDMF bytes per node and frame, default fields, uncompressed (200: 13.3 MB for 68,921 "
           "nodes and 64,000 cells)")
    a("--checkpoint-bytes-per-node", type=float, default=96,
      help="checkpoint bytes per node: u, v, the half-step velocity and the guess (4 x 24)")
    a("--halo-messages", type=float, default=26,
      help="neighbours per rank for cube-shaped subdomains (26: faces, edges, corners)")
    a("--reductions-per-step", type=float, default=2,
      help="global reductions per step (2: the support reactions and the histories, every "
           "history row; measured with -log_view)")
    # The cluster's figures (typical; set yours):
    a("--bandwidth-per-rank", type=float, default=4e9,
      help="memory bandwidth per rank, B/s (4e9: ~250 GB/s STREAM over 64 cores)")
    a("--latency", type=float, default=2e-6, help="point-to-point latency, s (2e-6)")
    a("--link-bandwidth", type=float, default=10e9, help="network bandwidth per rank, B/s (10e9)")
    a("--allreduce-latency", type=float, default=2e-6,
      help="per tree level of an allreduce, s (2e-6; x log2 ranks)")
    a("--filesystem-bandwidth", type=float, default=50e9,
      help="parallel file system write bandwidth for the whole job, B/s (50e9)")
    args = p.parse_args()

    n = round(args.cells ** (1 / 3))  # cells per edge
    nodes = (n + 1) ** 3
    dofs = 3 * nodes
    frames = math.floor(args.steps / args.output_every) + 1
    checkpoints = math.floor(args.steps / args.checkpoint_every)
    frame_s = nodes * args.frame_bytes_per_node / args.filesystem_bandwidth
    checkpoint_s = nodes * args.checkpoint_bytes_per_node / args.filesystem_bandwidth
    print(f"{n}^3 = {n ** 3:.3g} hex8 cells, {dofs:.3g} DOFs, {args.steps:.3g} steps, "
          f"{frames} frames of {nodes * args.frame_bytes_per_node / 1e9:.3g} GB, "
          f"{checkpoints} checkpoints of {nodes * args.checkpoint_bytes_per_node / 1e9:.3g} GB; "
          f"one split of {args.cells * args.split_bytes_per_cell / 1e9:.3g} GB\n")
    print("| ranks | DOFs per rank | setup (s) | step: compute / halo / reductions (ms) "
          "| steps (s) | output (s) | checkpoints (s) | run (h) | step efficiency |")
    print("|---|---|---|---|---|---|---|---|---|")
    for ranks in [int(r) for r in args.ranks.split(",")]:
        per_rank = dofs / ranks
        side = (n ** 3 / ranks) ** (1 / 3)  # cells per edge of a rank's cube
        compute = per_rank * args.step_bytes_per_dof / args.bandwidth_per_rank
        # Two exchanges per step (ghost values out, ghost forces back): each rank's three lower
        # faces' nodes, 24 B each, over its neighbours.
        halo_bytes = 2 * 3 * (side + 1) ** 2 * 24
        halo = 2 * args.halo_messages * args.latency + halo_bytes / args.link_bandwidth
        reductions = args.reductions_per_step * args.allreduce_latency * math.log2(max(ranks, 2))
        step = compute + halo + reductions
        # Reading the shares of the split (each rank 1 GB/s at most, the job the file system's
        # bandwidth), assembly, and the 50 power iterations of the stable-step estimate.
        split_bytes = args.cells * args.split_bytes_per_cell
        read = max(split_bytes / ranks / 1e9, split_bytes / args.filesystem_bandwidth)
        setup = read + args.cells / ranks / args.assembly_cells_per_second + 50 * compute
        steps_s = args.steps * step
        run = setup + steps_s + frames * frame_s + checkpoints * checkpoint_s
        print(f"| {ranks:,} | {per_rank:,.0f} | {setup:.3g} | {1e3 * compute:.3g} / "
              f"{1e3 * halo:.3g} / {1e3 * reductions:.3g} | {steps_s:,.0f} | "
              f"{frames * frame_s:,.0f} | {checkpoints * checkpoint_s:,.0f} | {run / 3600:.2f} | "
              f"{compute / step:.0%} |")


if __name__ == "__main__":
    main()
