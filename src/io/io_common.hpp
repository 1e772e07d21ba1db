#pragma once
/// \file io_common.hpp
/// Helpers shared by the writers of this module (internal: not part of include/).

#include <hdf5.h>

#include <charconv>
#include <string>
#include <string_view>

#include "inertia/core/error.hpp"

namespace inertia::io::detail {

/// `text` with XML's five special characters escaped, for attribute values.
inline std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

/// Shortest text that reads back as the same double: 17 significant digits.
inline std::string format_time(double t) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, t, std::chars_format::general, 17);
  INERTIA_ASSERT(ec == std::errc());
  return std::string(buffer, end);
}

/// `value` in decimal, with leading zeros up to `width` digits.
inline std::string zero_padded(int value, int width) {
  std::string digits = std::to_string(value);
  if (static_cast<int>(digits.size()) < width)
    digits.insert(0, static_cast<std::size_t>(width) - digits.size(), '0');
  return digits;
}

/// HDF5's automatic printing of its error stack, off for the scope of the object (our errors say
/// what went wrong in one line).
class QuietHdf5 {
 public:
  QuietHdf5() {
    H5Eget_auto2(H5E_DEFAULT, &function_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  QuietHdf5(const QuietHdf5&) = delete;
  QuietHdf5& operator=(const QuietHdf5&) = delete;
  ~QuietHdf5() { H5Eset_auto2(H5E_DEFAULT, function_, data_); }

 private:
  H5E_auto2_t function_ = nullptr;
  void* data_ = nullptr;
};

}  // namespace inertia::io::detail
