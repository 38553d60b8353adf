// RRT-Connect timings with OMPL for bench/patheval-planner.ts (our own driver, not the release's code).
//
// Build (Debian/Ubuntu: apt-get install libompl-dev g++):
//   g++ -O2 -std=c++17 -I/usr/include/ompl-1.5 -I/usr/include/eigen3 bench/ompl/rrtconnect.cpp \
//       -o /tmp/patheval-rrtconnect -lompl -lboost_serialization -lboost_filesystem -lboost_system -lpthread
//
// Usage: rrtconnect <environment file> <radius> <runs> <seed> <time limit s> <naive|bbox>
// Prints one line per run: "run <i> <exact 0|1> <solve ms> <path states>".
//
// Problem, as bench/patheval-planner.ts sets up ours: a 2-D RealVectorStateSpace with bounds
// [-40, 40]^2, start (-36.6031, -36.4332), goal (36.0982, 36.363) as a GoalState (SimpleSetup's
// default threshold), state validity as PathEval's GeneratePaths.cpp defines it (disc inside the
// border box, then 20 points on the circle tested against every polygon with the even-odd rule),
// setStateValidityCheckingResolution(0.003), RRTConnect with its default range. "naive" scans every
// polygon for every point as the release does; "bbox" first skips polygons whose bounding box does
// not hold the point (same answers, less work). Only ss.solve() is timed.
#include <ompl/base/spaces/RealVectorStateSpace.h>
#include <ompl/geometric/SimpleSetup.h>
#include <ompl/geometric/planners/rrt/RRTConnect.h>
#include <ompl/util/Console.h>
#include <ompl/util/RandomNumbers.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace ob = ompl::base;
namespace og = ompl::geometric;

struct Shape {
  std::vector<double> xs, ys;
  double minX, maxX, minY, maxY;
};

static std::vector<Shape> readShapes(const char *file) {
  std::ifstream in(file);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", file);
    std::exit(2);
  }
  int count = 0;
  in >> count;
  std::vector<Shape> shapes(count);
  for (auto &s : shapes) {
    int k = 0;
    in >> k;
    s.xs.resize(k);
    s.ys.resize(k);
    for (int v = 0; v < k; ++v) in >> s.xs[v] >> s.ys[v];
    s.minX = s.maxX = s.xs[0];
    s.minY = s.maxY = s.ys[0];
    for (int v = 1; v < k; ++v) {
      s.minX = std::min(s.minX, s.xs[v]);
      s.maxX = std::max(s.maxX, s.xs[v]);
      s.minY = std::min(s.minY, s.ys[v]);
      s.maxY = std::max(s.maxY, s.ys[v]);
    }
  }
  if (!in) {
    std::fprintf(stderr, "malformed %s\n", file);
    std::exit(2);
  }
  return shapes;
}

// Even-odd crossing test with the comparisons of GeneratePaths.cpp.
static bool crosses(const Shape &s, double x, double y) {
  const int n = static_cast<int>(s.xs.size());
  bool inside = false;
  for (int i = 0, j = n - 1; i < n; j = i++) {
    const double xi = s.xs[i], yi = s.ys[i], xj = s.xs[j], yj = s.ys[j];
    if (((yi > y) != (yj > y)) && (x < (xj - xi) * (y - yi) / (yj - yi) + xi)) inside = !inside;
  }
  return inside;
}

int main(int argc, char **argv) {
  if (argc != 7) {
    std::fprintf(stderr, "usage: %s <env file> <radius> <runs> <seed> <time limit s> <naive|bbox>\n", argv[0]);
    return 2;
  }
  const std::vector<Shape> shapes = readShapes(argv[1]);
  const double radius = std::atof(argv[2]);
  const int runs = std::atoi(argv[3]);
  const unsigned long seed = std::strtoul(argv[4], nullptr, 10);
  const double limit = std::atof(argv[5]);
  const bool bbox = std::string(argv[6]) == "bbox";
  const double eps = 1e-9 * 41;  // bounding boxes grown a little, as on the TypeScript side

  ompl::msg::setLogLevel(ompl::msg::LOG_NONE);
  ompl::RNG::setSeed(seed);

  double cs[20], sn[20];
  for (int i = 0; i < 20; ++i) {
    const double angle = 2 * M_PI * i / 20;
    cs[i] = std::cos(angle);
    sn[i] = std::sin(angle);
  }
  auto valid = [&](const ob::State *state) {
    const auto *v = state->as<ob::RealVectorStateSpace::StateType>();
    const double x = v->values[0], y = v->values[1];
    if (x - radius < -40 || x + radius > 40 || y - radius < -40 || y + radius > 40) return false;
    for (int i = 0; i < 20; ++i) {
      const double px = x + radius * cs[i], py = y + radius * sn[i];
      for (const auto &s : shapes) {
        if (bbox && (px < s.minX - eps || px > s.maxX + eps || py < s.minY - eps || py > s.maxY + eps)) continue;
        if (crosses(s, px, py)) return false;
      }
    }
    return true;
  };

  auto space = std::make_shared<ob::RealVectorStateSpace>(2);
  space->setBounds(-40, 40);
  for (int run = 0; run < runs; ++run) {
    og::SimpleSetup ss(space);
    ss.setStateValidityChecker(valid);
    ss.getSpaceInformation()->setStateValidityCheckingResolution(0.003);
    ob::ScopedState<ob::RealVectorStateSpace> start(space), goal(space);
    start[0] = -36.6031;
    start[1] = -36.4332;
    goal[0] = 36.0982;
    goal[1] = 36.363;
    ss.setStartAndGoalStates(start, goal);
    ss.setPlanner(std::make_shared<og::RRTConnect>(ss.getSpaceInformation()));
    ss.setup();
    const auto t0 = std::chrono::steady_clock::now();
    const ob::PlannerStatus status = ss.solve(limit);
    const auto t1 = std::chrono::steady_clock::now();
    const bool exact = status == ob::PlannerStatus::EXACT_SOLUTION;
    const double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    const std::size_t states = exact ? ss.getSolutionPath().getStateCount() : 0;
    std::printf("run %d %d %.6f %zu\n", run, exact ? 1 : 0, ms, states);
  }
  return 0;
}
