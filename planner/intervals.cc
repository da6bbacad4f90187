#include "planner/intervals.h"
