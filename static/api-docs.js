/* Starts the vendored Swagger UI on /docs (app/web/routes/ops.py): a file, not an inline script. */
(function () {
  "use strict";
  var holder = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: holder.dataset.openapiUrl,
    dom_id: "#swagger-ui",
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    deepLinking: true
  });
})();
