// SVG line plots.

#include "inertia/core/svg_plot.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace inertia {

namespace {

constexpr double width = 720, panel_height = 260, top_margin = 40, left = 80, right = 30,
                 plot_top = 30, plot_bottom = 45;
constexpr const char* colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                   "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

std::string number(double v) {
  std::ostringstream out;
  out.precision(4);
  out << v;
  return out.str();
}

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else
      out += c;
  }
  return out;
}

/// Ticks at 1, 2, 5 x 10^k covering [lo, hi], about 5 of them.
std::vector<double> linear_ticks(double lo, double hi) {
  const double raw = (hi - lo) / 5;
  const double magnitude = std::pow(10, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double f : {1.0, 2.0, 5.0, 10.0})
    if (f * magnitude >= raw) {
      step = f * magnitude;
      break;
    }
  std::vector<double> ticks;
  for (double t = std::ceil(lo / step) * step; t <= hi + 1e-9 * step; t += step)
    ticks.push_back(std::abs(t) < 1e-12 * step ? 0 : t);
  return ticks;
}

}  // namespace

std::string svg_plot(const std::vector<PlotPanel>& panels, const std::string& title) {
  const double height = top_margin + panel_height * static_cast<double>(panels.size());
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << width / 2 << "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">"
      << escape(title) << "</text>\n";
  for (std::size_t p = 0; p < panels.size(); ++p) {
    const auto& panel = panels[p];
    const double y0 = top_margin + panel_height * static_cast<double>(p) + plot_top;
    const double h = panel_height - plot_top - plot_bottom, w = width - left - right;
    auto shown = [&](double x, double y) {
      return (!panel.log_x || x > 0) && (!panel.log_y || y > 0) && std::isfinite(x) &&
             std::isfinite(y);
    };
    double xlo = std::numeric_limits<double>::infinity(), xhi = -xlo;
    double ylo = panel.log_y ? xlo : 0, yhi = panel.log_y ? -xlo : 0;
    for (const auto& s : panel.series)
      for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
        if (!shown(s.x[i], s.y[i])) continue;
        xlo = std::min(xlo, s.x[i]);
        xhi = std::max(xhi, s.x[i]);
        ylo = std::min(ylo, s.y[i]);
        yhi = std::max(yhi, s.y[i]);
      }
    if (!(xhi > xlo)) xlo = panel.log_x ? 0.1 : 0, xhi = panel.log_x ? 10 : 1;
    std::vector<double> yticks;
    if (panel.log_y) {
      if (!(yhi > ylo)) ylo = 0.1, yhi = 10;
      ylo = std::pow(10, std::floor(std::log10(ylo)));
      yhi = std::pow(10, std::ceil(std::log10(yhi)));
      if (yhi / ylo > 1e12) ylo = yhi / 1e12;  // twelve decades at most
      for (double t = ylo; t <= yhi * (1 + 1e-9); t *= 10) yticks.push_back(t);
    } else {
      if (!(yhi > ylo)) yhi = ylo + 1;
      yhi += 0.05 * (yhi - ylo);  // headroom: a peak does not touch the frame
      yticks = linear_ticks(ylo, yhi);
      ylo = std::min(ylo, yticks.front()), yhi = std::max(yhi, yticks.back());
    }
    auto X = [&](double x) {
      const double f =
          panel.log_x ? std::log(x / xlo) / std::log(xhi / xlo) : (x - xlo) / (xhi - xlo);
      return left + w * f;
    };
    auto Y = [&](double y) {
      const double f = panel.log_y ? std::log(std::max(y, ylo) / ylo) / std::log(yhi / ylo)
                                   : (y - ylo) / (yhi - ylo);
      return y0 + h * (1 - f);
    };
    svg << "<text x=\"" << left + w / 2 << "\" y=\"" << y0 - 8
        << "\" text-anchor=\"middle\" font-size=\"13\">" << escape(panel.title) << "</text>\n";
    svg << "<rect x=\"" << left << "\" y=\"" << y0 << "\" width=\"" << w << "\" height=\"" << h
        << "\" fill=\"none\" stroke=\"black\"/>\n";
    // x ticks: decades with 2 and 5 between them (log), or 1-2-5 steps.
    std::vector<std::pair<double, bool>> xticks;  // value, labelled
    if (panel.log_x) {
      for (int e = static_cast<int>(std::floor(std::log10(xlo))); e <= std::ceil(std::log10(xhi));
           ++e)
        for (double f : {1.0, 2.0, 5.0}) {
          const double t = f * std::pow(10, e);
          if (t >= xlo * (1 - 1e-9) && t <= xhi * (1 + 1e-9)) xticks.emplace_back(t, true);
        }
    } else {
      for (double t : linear_ticks(xlo, xhi)) xticks.emplace_back(t, true);
    }
    for (const auto& [t, labelled] : xticks) {
      svg << "<line x1=\"" << X(t) << "\" x2=\"" << X(t) << "\" y1=\"" << y0 << "\" y2=\"" << y0 + h
          << "\" stroke=\"#dddddd\"/>\n";
      if (labelled)
        svg << "<text x=\"" << X(t) << "\" y=\"" << y0 + h + 16 << "\" text-anchor=\"middle\">"
            << number(t) << "</text>\n";
    }
    for (double t : yticks)
      svg << "<line x1=\"" << left << "\" x2=\"" << left + w << "\" y1=\"" << Y(t) << "\" y2=\""
          << Y(t) << "\" stroke=\"#dddddd\"/>\n<text x=\"" << left - 6 << "\" y=\"" << Y(t) + 4
          << "\" text-anchor=\"end\">" << number(t) << "</text>\n";
    svg << "<text x=\"" << left + w / 2 << "\" y=\"" << y0 + h + 34 << "\" text-anchor=\"middle\">"
        << escape(panel.x_label) << "</text>\n";
    svg << "<text transform=\"translate(" << 18 << "," << y0 + h / 2
        << ") rotate(-90)\" text-anchor=\"middle\">" << escape(panel.y_label) << "</text>\n";
    for (std::size_t k = 0; k < panel.series.size(); ++k) {
      const auto& s = panel.series[k];
      const char* colour = colours[k % std::size(colours)];
      svg << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"1.5\" points=\"";
      for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
        if (!shown(s.x[i], s.y[i])) continue;
        svg << X(s.x[i]) << "," << Y(s.y[i]) << " ";
      }
      svg << "\"/>\n";
      const double ly = y0 + 16 + 16 * static_cast<double>(k);
      svg << "<line x1=\"" << left + w - 150 << "\" x2=\"" << left + w - 125 << "\" y1=\"" << ly - 4
          << "\" y2=\"" << ly - 4 << "\" stroke=\"" << colour << "\" stroke-width=\"2\"/>\n"
          << "<text x=\"" << left + w - 120 << "\" y=\"" << ly << "\">" << escape(s.label)
          << "</text>\n";
    }
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace inertia
