#pragma once
/// \file series_index.hpp
/// The index file of a time series, shared by the writers of this module (internal: not part of
/// include/): ParaView's .pvd of the VTK writer and the temporal collection (.xdmf) of the XDMF
/// writer. Kept on rank 0.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace inertia::io::detail {

/// One step of a series index: its time, its number and its text in the file.
struct SeriesEntry {
  double time = 0;
  int step = 0;
  std::string text;
};

/// A time series' index: the entries of the steps written so far, in order. The file is
/// rewritten whole and atomically (a temporary file, then a rename) with each new entry, so that a
/// killed run leaves a valid index of the steps it completed; once the run failed, an XML comment
/// after the last entry says so; a restart keeps the existing index's entries up to its time.
/// Not collective: its owner calls it on rank 0 only.
class SeriesIndex {
 public:
  /// The file's text: `head`, the comment of a failed run (indented by `comment_indent`),
  /// `before_entries`, the entries, `tail`.
  struct Layout {
    std::string head, comment_indent, before_entries, tail;
  };
  /// The entries of an existing index's text, in order (their step numbers from the file).
  using Parse = std::function<std::vector<SeriesEntry>(const std::string& text)>;

  SeriesIndex(std::filesystem::path path, Layout layout);

  /// Creates `directory` if missing; with resume_up_to (a restart), keeps the entries that
  /// `parse` reads from the existing index (none when there is none) up to that time; then writes
  /// the index, which is the directory's writability check (InputError naming the directory).
  void start(const std::filesystem::path& directory, std::optional<double> resume_up_to,
             const Parse& parse);
  /// The step after the last kept one (0 without).
  int next_step() const { return next_step_; }
  /// Appends the entry and rewrites the index; an index that cannot be rewritten is left as it
  /// was, without the entry (the error is rethrown).
  void add(double time, std::string text);
  /// Rewrites the index with a comment saying the run failed (and why) after the steps it lists;
  /// ParaView still opens the steps. Never throws.
  void mark_failed(const std::string& reason) noexcept;

  const std::vector<SeriesEntry>& entries() const { return entries_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  void write() const;

  std::filesystem::path path_;
  Layout layout_;
  std::vector<SeriesEntry> entries_;
  int next_step_ = 0;
  std::string failure_;  ///< non-empty once the run failed
};

}  // namespace inertia::io::detail
