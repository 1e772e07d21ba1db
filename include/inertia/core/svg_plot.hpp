#pragma once
/// \file svg_plot.hpp
/// Line plots as SVG text, for the plots the command-line tools write next to their CSV files
/// (a browser or an image viewer opens them; no plotting library needed).

#include <string>
#include <vector>

namespace inertia {

struct PlotSeries {
  std::string label;
  std::vector<double> x, y;
};

struct PlotPanel {
  std::string title, x_label, y_label;
  bool log_x = false;
  bool log_y = false;  ///< decades; values <= 0 left out
  std::vector<PlotSeries> series;
};

/// The panels stacked vertically under `title`, each with its axes, ticks and a legend.
std::string svg_plot(const std::vector<PlotPanel>& panels, const std::string& title);

}  // namespace inertia
