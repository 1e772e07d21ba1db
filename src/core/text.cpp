#include "inertia/core/text.hpp"

#include <algorithm>
#include <vector>

namespace inertia {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates) {
  std::string_view best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (auto c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d < best_distance) best = c, best_distance = d;
  }
  if (best.empty()) return "";
  return " (did you mean '" + std::string(best) + "'?)";
}

std::string join(std::span<const std::string_view> words, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i) out += separator;
    out += words[i];
  }
  return out;
}

}  // namespace inertia
