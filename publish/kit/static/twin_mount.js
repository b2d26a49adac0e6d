const twinPanel = document.querySelector("[data-twin]");
Twin.mount(twinPanel, JSON.parse(document.getElementById("twin-data").textContent));
