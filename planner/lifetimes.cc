#include "planner/lifetimes.h"
