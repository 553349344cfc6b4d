// NavLogSample/: The synthetic session generator (`navlog generate`, tests, benchmarks): sessions and their events, the seeded generator, canonical and other producers' lines, flat exports of them.
// The synthetic-session generator speaks NavLogCore's types (events, states,
// route values) in every file and signature: importing NavLogSample imports
// them too, and the moved files need no import of their own.
@_exported import NavLogCore
