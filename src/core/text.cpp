#include "inertia/core/text.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <vector>

#include "inertia/core/error.hpp"

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
  // Names are short; a megabyte "name" (a broken file) gets no hint: the distance costs the
  // product of the lengths.
  constexpr std::size_t longest = 1000;
  std::string_view best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  if (word.size() > longest) return "";
  for (auto c : candidates) {
    if (c.size() > longest) continue;
    const std::size_t d = edit_distance(word, c);
    if (d < best_distance) best = c, best_distance = d;
  }
  if (best.empty()) return "";
  return cat(" (did you mean '", excerpt(best), "'?)");
}

std::string g3(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", x);
  return buffer;
}

std::string six(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

std::string join(std::span<const std::string_view> words, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i) out += separator;
    out += words[i];
  }
  return out;
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= 0x20 && c != 0x7f) || c >= 0x80) {  // printable ASCII, or UTF-8 (region names)
      out.push_back(ch);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      static constexpr char hex[] = "0123456789abcdef";
      out += "\\x";
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  return out;
}

std::string excerpt(std::string_view text, std::size_t limit) {
  if (text.size() <= limit) return printable(text);
  std::size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return cat(printable(text.substr(0, cut)), "... (", text.size(), " bytes)");
}

}  // namespace inertia
