package demo

// food is a meal template for an average portion (~2,000 kcal days); people
// scale it by their appetite.
type food struct {
	name                      string
	kcal, protein, carbs, fat float64
}

// slot is a meal of the day: when it is eaten and what it may be.
type slot struct {
	name         string
	hour, minute int // earliest local time
	spreadMin    int // minutes after the earliest time it may start
	foods        []food
}

func slots() []slot {
	return []slot{
		{name: "breakfast", hour: 7, minute: 10, spreadMin: 80, foods: []food{
			{"Greek yogurt with berries and granola", 380, 24, 48, 10},
			{"Porridge with banana and peanut butter", 480, 15, 70, 16},
			{"Scrambled eggs on sourdough", 450, 26, 35, 22},
			{"Avocado toast with a poached egg", 420, 17, 34, 24},
			{"Protein smoothie", 350, 32, 40, 7},
			{"Overnight oats with apple", 410, 18, 58, 12},
		}},
		{name: "lunch", hour: 12, minute: 0, spreadMin: 90, foods: []food{
			{"Chicken Caesar salad", 520, 42, 18, 31},
			{"Lentil soup with bread", 560, 26, 82, 12},
			{"Turkey and hummus wrap", 580, 38, 55, 21},
			{"Quinoa bowl with roasted vegetables and feta", 610, 21, 72, 26},
			{"Tuna niçoise salad", 490, 38, 25, 26},
			{"Sushi lunch box", 620, 27, 96, 13},
			{"Leftover chili with rice", 650, 35, 80, 18},
		}},
		{name: "snack", hour: 15, minute: 30, spreadMin: 60, foods: []food{
			{"Apple with almond butter", 200, 5, 25, 10},
			{"Protein bar", 210, 20, 22, 7},
			{"Handful of mixed nuts", 180, 6, 6, 16},
			{"Cottage cheese with pineapple", 170, 18, 16, 3},
			{"Dark chocolate and a flat white", 190, 6, 17, 11},
			{"Banana", 105, 1, 27, 0},
		}},
		{name: "dinner", hour: 18, minute: 30, spreadMin: 90, foods: []food{
			{"Salmon with rice and broccoli", 680, 42, 62, 26},
			{"Spaghetti bolognese", 760, 38, 92, 24},
			{"Chicken stir-fry with noodles", 690, 44, 78, 19},
			{"Veggie curry with basmati rice", 640, 18, 98, 19},
			{"Steak, potatoes and green beans", 780, 50, 55, 38},
			{"Homemade margherita pizza", 820, 34, 96, 32},
			{"Tofu poke bowl", 620, 28, 80, 20},
			{"Roast chicken with vegetables", 700, 52, 40, 34},
		}},
	}
}

// activity is a kind of workout with plausible ranges.
type activity struct {
	typ            string
	titles         []string
	minDur, maxDur int     // minutes
	hrLo, hrHi     int     // average heart rate
	kcalPerMin     float64 // rough energy use
}

func activities() map[string]activity {
	return map[string]activity{
		"strength": {"strength", []string{"Upper body strength", "Lower body strength", "Full-body dumbbells", "Push day", "Pull day", "Legs and core"}, 35, 60, 108, 132, 6},
		"run":      {"run", []string{"Easy 5k", "Tempo run", "Long run", "Park intervals", "Recovery jog"}, 25, 55, 138, 162, 10.5},
		"yoga":     {"yoga", []string{"Vinyasa flow", "Yin yoga", "Morning stretch", "Power yoga"}, 20, 45, 88, 108, 3.5},
		"hiit":     {"hiit", []string{"20-minute HIIT", "Tabata blast", "Kettlebell circuit", "Bodyweight burner"}, 15, 30, 145, 166, 11},
		"cycling":  {"cycling", []string{"Indoor ride: intervals", "Endurance ride", "Hill climb ride", "Group ride"}, 30, 60, 124, 150, 8},
	}
}
