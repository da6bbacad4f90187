#include "planner/text.h"
