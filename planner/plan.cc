#include "planner/plan.h"
