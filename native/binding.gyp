{
  "targets": [
    {
      "target_name": "keel-spawn",
      "sources": ["keel-spawn.c", "start.c", "run.c"],
      "cflags": ["-O2", "-Wall", "-Wextra", "-Wno-unused-parameter"]
    }
  ]
}
