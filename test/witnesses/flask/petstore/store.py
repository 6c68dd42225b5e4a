"""In-memory records, seeded with the data the spec shows."""
import copy
import threading

SEED_CATEGORIES = [
    {"id": 1, "name": "dog", "description": "Dogs of every breed"},
    {"id": 2, "name": "cat", "description": "Cats of every breed"},
    {"id": 3, "name": "rabbit", "description": "Rabbits and hares"},
]

SEED_PETS = [
    {
        "id": 1,
        "name": "Rex",
        "category": {"id": 1, "name": "dog", "description": "Dogs of every breed"},
        "photoUrls": ["https://images.petstore.example.com/pets/1.jpg"],
        "tags": [{"id": 1, "name": "friendly"}],
        "status": "available",
    },
]

SEED_ORDERS = [
    {"id": 1, "petId": 1, "quantity": 1, "shipDate": "2026-11-20T10:00:00Z",
     "status": "delivered", "complete": True},
    {"id": 2, "petId": 2, "quantity": 2, "shipDate": "2026-11-25T09:30:00Z",
     "status": "placed", "complete": False},
]


class Store:
    def __init__(self):
        self._lock = threading.Lock()
        self._categories = copy.deepcopy(SEED_CATEGORIES)  # kept in ascending id order
        self._pets = {pet["id"]: copy.deepcopy(pet) for pet in SEED_PETS}
        self._orders = copy.deepcopy(SEED_ORDERS)
        self._next_category_id = max(c["id"] for c in self._categories) + 1

    def list_categories(self):
        with self._lock:
            return copy.deepcopy(self._categories)

    def add_category(self, name, description=None, has_description=False):
        with self._lock:
            category = {"id": self._next_category_id, "name": name}
            if has_description:
                category["description"] = description
            self._next_category_id += 1
            self._categories.append(category)
            return dict(category)

    def get_pet(self, pet_id):
        with self._lock:
            pet = self._pets.get(pet_id)
            return copy.deepcopy(pet) if pet is not None else None

    def list_orders(self):
        with self._lock:
            return copy.deepcopy(self._orders)
