#include "planner/planner.h"
