#include "planner/rewrite.h"
