/**
 * Conversational-memory episodes for the recall eval, shaped like the
 * public long-term memory benchmarks: a person chats with an assistant
 * about a topic and, in passing, states a fact about their own life; later
 * they ask about it in other words. Distractor chats share the topic and
 * its vocabulary. All people, places and facts are invented.
 *
 * @module
 */

/** Topics: distractor facts a person might mention and generic replies. */
export interface Topic {
  /** Opening requests for chats on this topic. */
  openers: string[];
  /** Facts other chats mention (distractors sharing vocabulary). */
  facts: string[];
  /** Sentences the assistant's long replies are built from. */
  advice: string[];
}

/** A memory episode: one fact in one chat, and the questions about it. */
export interface MemoryEpisode {
  key: string;
  topic: keyof typeof TOPICS;
  opener: string;
  fact: string;
  questions: string[];
}

/** Topic pools. */
export const TOPICS = {
  pets: {
    openers: [
      "Can you give me tips for crate training a puppy?",
      "What should I feed an older cat with sensitive digestion?",
      "How often should a dog go to the vet for checkups?",
      "Any ideas for keeping a high-energy dog busy indoors?",
    ],
    facts: [
      "Our cat Pepper just turned twelve and sleeps most of the day.",
      "We adopted two guinea pigs last year and they are loud in the morning.",
      "My neighbor's beagle keeps digging under our fence.",
      "I walk my dog along the river path every evening before dinner.",
      "We got our rabbit from a breeder two towns over.",
      "The puppy class at the community center starts in the fall.",
    ],
    advice: [
      "Consistency matters more than any single technique, so keep the routine the same every day.",
      "Short training sessions of five to ten minutes work better than long ones for young animals.",
      "Reward the behavior you want immediately, within a second or two, so the connection is clear.",
      "A vet can rule out medical causes before you assume it is a behavior problem.",
      "Puzzle feeders and sniffing games tire a dog out mentally as much as a long walk does.",
      "Introduce any new food gradually over a week by mixing it with the old one.",
      "Regular dental care is often overlooked but prevents expensive problems later.",
      "Make sure fresh water is always available, especially after exercise.",
      "Socializing a young animal with different people and sounds early pays off for years.",
      "If your pet seems stressed, give it a quiet space it can retreat to.",
    ],
  },
  travel: {
    openers: [
      "I'm planning a week in Portugal, what should I not miss?",
      "How do I find cheap flights for a family of four?",
      "What should I pack for a rainy trip in the spring?",
      "Can you suggest a three day itinerary for a city break?",
    ],
    facts: [
      "Last summer we rented an apartment in Seville for ten days.",
      "My husband always wants to stay near the train station.",
      "We spent a night in a hostel in Ghent that was surprisingly nice.",
      "I booked a hotel near the old town in Krakow for our next trip.",
      "Our flight to Rome was delayed six hours last year.",
      "I stayed at a guesthouse in Bergen with a view of the harbor.",
    ],
    advice: [
      "Booking accommodation in the historic center saves a lot of time on transport.",
      "Travel insurance that covers cancellations is worth it for longer trips.",
      "Many museums have a free evening once a week, so check the schedules in advance.",
      "Pack layers, since spring weather can change several times in a day.",
      "Local markets are a good way to try regional food without the restaurant prices.",
      "A day pass for public transport is usually cheaper than single tickets.",
      "Leave one afternoon unplanned so you can wander without a schedule.",
      "Flights are often cheaper midweek and when booked six to eight weeks ahead.",
      "Keep digital copies of your passport and bookings in case something gets lost.",
      "Guided walking tours give useful context on the first day in a new city.",
    ],
  },
  fitness: {
    openers: [
      "Can you make me a beginner running plan?",
      "What stretches help with tight hamstrings?",
      "How should I structure strength training three days a week?",
      "What's a good warm-up before a long run?",
    ],
    facts: [
      "I run three times a week, usually before work.",
      "My gym closes early on Sundays, which is annoying.",
      "I did a 10k charity run in the rain last October.",
      "I've been doing push-ups every morning for a month.",
      "My brother is training for a triathlon in the summer.",
      "I tried a spin class once and my legs hurt for days.",
    ],
    advice: [
      "Increase weekly distance by no more than about ten percent to avoid injury.",
      "Rest days are when your body adapts, so do not skip them.",
      "Dynamic stretches before exercise and static stretches after tend to work best.",
      "Sleep and protein intake matter as much as the workouts themselves.",
      "A heart rate monitor can keep easy runs genuinely easy.",
      "Compound lifts like squats and rows give the most benefit per minute.",
      "If a pain gets sharper during exercise, stop and have it checked.",
      "Tracking your sessions in a notebook makes progress easier to see.",
      "Hydrate before you feel thirsty on longer sessions.",
      "Mixing in cross-training such as swimming reduces repetitive strain.",
    ],
  },
  food: {
    openers: [
      "What's an easy weeknight dinner I can make in thirty minutes?",
      "How do I keep bread from going stale so fast?",
      "Can you suggest a vegetarian dish for a dinner party?",
      "What spices should every kitchen have?",
    ],
    facts: [
      "My partner doesn't eat mushrooms, so I leave them out.",
      "I bake bread every Sunday morning for the week.",
      "We make dumplings with my mother-in-law every new year.",
      "I've been trying to eat less sugar since January.",
      "Our kids only eat pasta with butter and cheese.",
      "I bought a cast iron pan at a flea market for five dollars.",
    ],
    advice: [
      "Prepping vegetables on the weekend makes weeknight cooking much faster.",
      "Salt your pasta water generously; it is the main chance to season the pasta.",
      "Toasting whole spices in a dry pan brings out much more flavor.",
      "Let meat rest for a few minutes after cooking so the juices settle.",
      "A squeeze of lemon at the end brightens most soups and stews.",
      "Freezing bread in slices lets you toast exactly what you need.",
      "Taste as you go and adjust seasoning in small steps.",
      "A sharp knife is safer than a dull one because it does not slip.",
      "Roasting vegetables at high heat caramelizes them and adds depth.",
      "Keep a few pantry staples like canned tomatoes and beans for quick meals.",
    ],
  },
  work: {
    openers: [
      "How do I prepare for a performance review?",
      "Can you help me write a polite email declining a meeting?",
      "What are good questions to ask at the end of a job interview?",
      "How can I manage my time better with back-to-back meetings?",
    ],
    facts: [
      "My manager wants weekly status reports every Friday.",
      "I switched teams in March to work on the mobile app.",
      "Our office moved to the fourth floor of a new building.",
      "I commute forty minutes each way by bus.",
      "My coworker Dana is leaving for a startup next month.",
      "I have a certification exam for project management in the spring.",
    ],
    advice: [
      "Keep a running list of your accomplishments so reviews are easy to prepare.",
      "Blocking focus time in your calendar protects it from meetings.",
      "A short agenda sent before a meeting makes it far more productive.",
      "When declining, offer an alternative such as written input or a later slot.",
      "Ask about how success is measured in the role during an interview.",
      "Batching email into two or three sessions a day reduces context switching.",
      "Clarify priorities with your manager when everything seems urgent.",
      "Writing down decisions after a meeting avoids confusion later.",
      "Taking a real lunch break improves afternoon focus.",
      "Mentoring others is one of the fastest ways to deepen your own skills.",
    ],
  },
  hobbies: {
    openers: [
      "What's a relaxing hobby I can pick up in the evenings?",
      "How do I get better at drawing faces?",
      "What should a beginner know about learning an instrument?",
      "Can you recommend ways to get back into reading?",
    ],
    facts: [
      "I collect vintage postcards from flea markets.",
      "My daughter is learning the violin at school.",
      "I knit scarves for friends every winter.",
      "I joined a chess club that meets on Tuesday evenings.",
      "I tried pottery last year but didn't keep it up.",
      "I read mostly science fiction on my e-reader.",
    ],
    advice: [
      "Setting a small daily goal, like fifteen minutes, builds a habit without pressure.",
      "Joining a group or class adds accountability and makes it more social.",
      "Beginners improve fastest by copying work they admire and studying it.",
      "Recording yourself is uncomfortable but shows what to work on.",
      "Invest in decent basic tools before buying anything expensive.",
      "Slow, deliberate practice beats rushing through pieces at full speed.",
      "Keep the materials visible so it is easy to start a session.",
      "Celebrate small milestones to stay motivated over months.",
      "Online communities are great for feedback and encouragement.",
      "Mixing easy and challenging projects keeps the hobby fun.",
    ],
  },
  family: {
    openers: [
      "How do I plan a small birthday party for a seven year old?",
      "What are good gift ideas for my parents' anniversary?",
      "How can I help my teenager manage exam stress?",
      "Any advice for hosting family for the holidays in a small apartment?",
    ],
    facts: [
      "My parents live two hours away and visit once a month.",
      "My nephew just started high school and loves robotics.",
      "My grandmother turns ninety in December.",
      "Our family reunion is usually at the lake in July.",
      "My brother and his wife are expecting twins.",
      "My daughter wants a science-themed birthday this year.",
    ],
    advice: [
      "Keep the plan simple and leave room for the unexpected with children.",
      "A shared calendar helps coordinate visits across busy schedules.",
      "Experiences often mean more to parents than objects do.",
      "Listening without immediately offering solutions helps stressed teenagers.",
      "Assign small tasks to guests so hosting does not fall on one person.",
      "A short walk after a big meal gives everyone a break.",
      "Photos printed in a small album make a thoughtful, personal gift.",
      "Setting expectations early about sleeping arrangements avoids friction.",
      "Regular phone calls keep distant relatives feeling included.",
      "Involve kids in planning so they feel ownership of the event.",
    ],
  },
  home: {
    openers: [
      "How do I get rid of mold in the bathroom?",
      "What's the best way to organize a small closet?",
      "Which houseplants are easy to keep alive?",
      "How can I lower my heating bill this winter?",
    ],
    facts: [
      "We repainted the living room a pale green in the spring.",
      "Our kitchen faucet has been dripping for weeks.",
      "I have a snake plant and a pothos on my desk.",
      "We live on the top floor of an old building without an elevator.",
      "Our landlord finally replaced the old windows.",
      "I started composting kitchen scraps on the balcony.",
    ],
    advice: [
      "Good ventilation is the most effective long-term fix for damp rooms.",
      "Store things you use daily at eye level and the rest higher or lower.",
      "Most houseplants die from overwatering rather than neglect.",
      "Sealing drafts around windows and doors is cheap and effective.",
      "A dehumidifier helps in rooms that stay damp.",
      "Declutter one small area at a time instead of a whole room at once.",
      "Bright indirect light suits most common indoor plants.",
      "Lowering the thermostat by one degree saves noticeably over a season.",
      "Clear containers make it easy to see what you have in storage.",
      "Check the drainage holes of pots so roots do not sit in water.",
    ],
  },
  tech: {
    openers: [
      "Which laptop specs matter for photo editing?",
      "How do I back up my phone photos automatically?",
      "Is it worth buying noise cancelling headphones?",
      "How can I make my home wifi faster?",
    ],
    facts: [
      "My old tablet barely holds a charge anymore.",
      "I use an external drive for backups once a month.",
      "My wifi router is in the hallway closet.",
      "I switched to a mechanical keyboard last year.",
      "My phone storage is always full of videos.",
      "I bought a second monitor for working from home.",
    ],
    advice: [
      "More memory usually helps everyday performance more than a faster processor.",
      "Automatic cloud backup plus one local copy covers most risks.",
      "Placing the router centrally and off the floor improves coverage.",
      "Check the warranty and repair options before buying refurbished devices.",
      "Updating firmware fixes many connectivity problems.",
      "A good pair of headphones is worth trying on before buying.",
      "Cleaning up large videos is the fastest way to free phone storage.",
      "An SSD makes an old computer feel much faster.",
      "Use a password manager so every account has a unique password.",
      "Mesh systems help in larger homes where one router cannot reach.",
    ],
  },
  health: {
    openers: [
      "How can I sleep better when I'm stressed?",
      "What should I ask my doctor at an annual checkup?",
      "Are there good exercises for lower back pain?",
      "How much water should I drink in a day?",
    ],
    facts: [
      "I've had trouble sleeping since I started the night shifts.",
      "My doctor told me to cut back on coffee.",
      "I get seasonal allergies every April.",
      "I wear glasses for reading now.",
      "I started seeing a physiotherapist for my shoulder.",
      "I try to walk ten thousand steps a day.",
    ],
    advice: [
      "A consistent sleep schedule, even on weekends, helps most people.",
      "Write your questions down before an appointment so you do not forget them.",
      "Gentle core strengthening often helps with back discomfort.",
      "Screens before bed can make it harder to fall asleep.",
      "Check with a professional before starting a new supplement.",
      "Regular movement throughout the day matters as much as one workout.",
      "Limiting caffeine after noon can improve sleep quality.",
      "Keep a simple symptom diary to spot patterns.",
      "Stress management techniques like breathing exercises help with sleep.",
      "Annual checkups are a good time to review vaccinations.",
    ],
  },
} satisfies Record<string, Topic>;

/** The memory episodes. */
export const MEMORY: MemoryEpisode[] = [
  {
    key: "puppy-biscuit",
    topic: "pets",
    opener: "How do I stop a new puppy from chewing everything?",
    fact:
      "We adopted a golden retriever puppy from the shelter on Maple Street last weekend and named him Biscuit.",
    questions: [
      "What did I name the puppy we adopted?",
      "Where did we get our golden retriever from?",
    ],
  },
  {
    key: "lisbon-guesthouse",
    topic: "travel",
    opener: "What are the best neighborhoods to walk around in Lisbon?",
    fact:
      "When we went to Lisbon in April we stayed at a tiny guesthouse called Casa do Mar in Alfama, and I loved it.",
    questions: [
      "What was the name of the place I stayed at in Lisbon?",
      "Which neighborhood was our guesthouse in during the Portugal trip?",
    ],
  },
  {
    key: "half-marathon",
    topic: "fitness",
    opener: "How should I recover after a long race?",
    fact:
      "I finished my first half marathon on Sunday in 1 hour 58 minutes, just under my two hour goal.",
    questions: [
      "How long did it take me to run my first half marathon?",
      "Did I meet my goal time in the half marathon?",
    ],
  },
  {
    key: "sourdough-doughbert",
    topic: "food",
    opener: "Why is my sourdough bread so dense?",
    fact:
      "My sourdough starter, which I call Doughbert, is three weeks old and doubles in about six hours.",
    questions: [
      "What do I call my sourdough starter?",
      "How old is my starter for bread?",
    ],
  },
  {
    key: "greenfield-job",
    topic: "work",
    opener: "How do I make a good impression in the first week at a new job?",
    fact:
      "I start as a data analyst at Greenfield Logistics next Monday, my first job outside of retail.",
    questions: [
      "Which company am I joining as an analyst?",
      "What is my new job title?",
    ],
  },
  {
    key: "piano-alvarez",
    topic: "hobbies",
    opener: "How long does it take an adult to learn piano?",
    fact:
      "I've been taking piano lessons on Thursday evenings with Mrs. Alvarez, a retired music teacher down the street.",
    questions: [
      "Who teaches me piano?",
      "On which day of the week are my piano lessons?",
    ],
  },
  {
    key: "cashew-allergy",
    topic: "health",
    opener: "What should I know about managing a food allergy?",
    fact:
      "After the reaction at the party my allergist confirmed I'm allergic to cashews, but peanuts are fine.",
    questions: [
      "Which nut am I allergic to?",
      "What did the allergist confirm about my allergy?",
    ],
  },
  {
    key: "book-club",
    topic: "hobbies",
    opener: "How do I lead a good discussion at a book club?",
    fact:
      "Our book club is reading The Left Hand of Darkness this month and I'm hosting the meeting.",
    questions: [
      "Which novel is my book club reading this month?",
      "Who is hosting the next book club meeting?",
    ],
  },
  {
    key: "subaru-outback",
    topic: "tech",
    opener: "What should I check before buying a used car?",
    fact:
      "I finally traded in my old Honda Civic and bought a used Subaru Outback with 40,000 miles on it.",
    questions: [
      "What car did I buy to replace my Civic?",
      "How many miles were on the car I bought?",
    ],
  },
  {
    key: "raised-bed",
    topic: "home",
    opener: "When should I start seedlings indoors?",
    fact:
      "This year I planted tomatoes, basil and three kinds of peppers in the raised bed behind the garage.",
    questions: [
      "What did I plant in my raised garden bed?",
      "Where is my raised bed?",
    ],
  },
  {
    key: "porto-wedding",
    topic: "family",
    opener: "What's a good toast to give at a sibling's wedding?",
    fact:
      "My sister's wedding is in Porto on June 14th and I'm giving the maid of honor speech.",
    questions: [
      "Where is my sister getting married?",
      "What is the date of my sister's wedding?",
    ],
  },
  {
    key: "down-payment",
    topic: "work",
    opener: "How do I make a realistic monthly budget?",
    fact:
      "I'm trying to save $400 a month toward a down payment on an apartment.",
    questions: [
      "How much am I saving each month for the house?",
      "What am I saving money for?",
    ],
  },
  {
    key: "v60",
    topic: "food",
    opener: "What's the difference between espresso and filter coffee?",
    fact:
      "I switched from my espresso machine to pour-over with a Hario V60 and a hand grinder.",
    questions: [
      "What coffee brewer do I use now?",
      "What did I switch to from my espresso machine?",
    ],
  },
  {
    key: "hot-yoga",
    topic: "fitness",
    opener: "Is hot yoga good for flexibility?",
    fact:
      "I joined the yoga studio on Fifth Avenue and I'm doing hot yoga three times a week now.",
    questions: [
      "How often do I go to hot yoga?",
      "Where is the yoga studio I joined?",
    ],
  },
  {
    key: "thinkpad",
    topic: "tech",
    opener: "Is a refurbished laptop a good idea for freelance work?",
    fact:
      "I ended up buying a refurbished ThinkPad X1 Carbon for my freelance design work.",
    questions: [
      "What laptop did I get for freelancing?",
      "Did I buy my computer new or refurbished?",
    ],
  },
  {
    key: "pierogi",
    topic: "food",
    opener: "How do I make dough that doesn't tear for dumplings?",
    fact:
      "My grandmother's pierogi recipe uses farmer's cheese, potatoes and a lot of fried onion.",
    questions: [
      "What filling does my grandma use in her pierogi?",
      "Whose pierogi recipe am I following?",
    ],
  },
  {
    key: "denver-move",
    topic: "home",
    opener: "What should I do first when moving to a new city?",
    fact:
      "We're moving to Denver at the end of August for my husband's new position.",
    questions: [
      "Which city are we moving to?",
      "When is our move happening?",
    ],
  },
  {
    key: "history-podcast",
    topic: "hobbies",
    opener: "Can you recommend podcasts for a long commute?",
    fact:
      "On my commute I've been listening to a history podcast called The Rest Is History.",
    questions: [
      "What podcast do I listen to while commuting?",
      "What kind of podcast have I been enjoying on the bus?",
    ],
  },
  {
    key: "yamaha-guitar",
    topic: "hobbies",
    opener: "Is fingerpicking hard to learn on guitar?",
    fact:
      "I bought a Yamaha acoustic guitar secondhand and I'm learning fingerpicking from videos.",
    questions: [
      "What brand of guitar did I buy?",
      "Which guitar technique am I learning?",
    ],
  },
  {
    key: "brookside",
    topic: "family",
    opener: "How can I help a shy child adjust to school?",
    fact:
      "My son Leo started kindergarten at Brookside Elementary and he's still very shy there.",
    questions: [
      "What school does my son attend?",
      "What is my son's name?",
    ],
  },
  {
    key: "pickleball-knee",
    topic: "health",
    opener: "How long does a sprained knee take to heal?",
    fact:
      "I sprained my left knee playing pickleball with my coworkers two weeks ago.",
    questions: [
      "How did I hurt my knee?",
      "Which sport was I playing when I got injured?",
    ],
  },
  {
    key: "food-bank",
    topic: "family",
    opener: "How can I get my kids interested in volunteering?",
    fact:
      "I volunteer at the Eastside food bank every other Saturday, sorting donations.",
    questions: [
      "Where do I volunteer?",
      "How often do I volunteer on weekends?",
    ],
  },
  {
    key: "tuscany-anniversary",
    topic: "travel",
    opener: "What are romantic ideas for a wedding anniversary trip?",
    fact:
      "For our tenth anniversary we took a cooking class in a farmhouse in Tuscany.",
    questions: [
      "What did we do for our tenth anniversary?",
      "Where did we take the cooking class?",
    ],
  },
  {
    key: "fiddle-leaf",
    topic: "home",
    opener: "Why do indoor plants drop their leaves?",
    fact:
      "My fiddle leaf fig keeps dropping leaves even though it sits right by the south window.",
    questions: [
      "Which houseplant of mine is losing leaves?",
      "Where is my fiddle leaf fig placed?",
    ],
  },
  {
    key: "duolingo-japanese",
    topic: "hobbies",
    opener: "What's the best way to learn a language as an adult?",
    fact: "I'm studying Japanese on Duolingo and I'm on a 120-day streak.",
    questions: [
      "How long is my language learning streak?",
      "Which language am I studying on the app?",
    ],
  },
  {
    key: "screen-repair",
    topic: "tech",
    opener: "Is it worth repairing a cracked phone screen?",
    fact:
      "I got my cracked phone screen replaced at the mall kiosk for $89 and it works fine.",
    questions: [
      "How much did my screen repair cost?",
      "Where did I get my phone fixed?",
    ],
  },
  {
    key: "miso-dental",
    topic: "pets",
    opener: "Do cats really need dental cleanings?",
    fact:
      "Our cat Miso needs a dental cleaning next week and the vet quoted us $350.",
    questions: [
      "What procedure does my cat need?",
      "How much will the vet charge for Miso?",
    ],
  },
  {
    key: "berlin-talk",
    topic: "work",
    opener: "How do I get over nerves before a conference talk?",
    fact:
      "I'm presenting a talk on accessible form design at the UX Summit in Berlin in November.",
    questions: [
      "What is my conference talk about?",
      "Which city is the summit where I'm speaking?",
    ],
  },
  {
    key: "kalalau",
    topic: "travel",
    opener: "How do I prepare for a multi-day coastal hike?",
    fact:
      "Last spring we hiked the Kalalau Trail on Kauai and camped two nights on the beach.",
    questions: [
      "Which trail did we hike in Hawaii?",
      "How many nights did we camp on the hike?",
    ],
  },
  {
    key: "watercolor",
    topic: "hobbies",
    opener: "What supplies do I need to start painting?",
    fact:
      "I started painting watercolor landscapes on Sunday mornings at the park.",
    questions: [
      "What kind of painting do I do?",
      "When do I usually paint?",
    ],
  },
];
